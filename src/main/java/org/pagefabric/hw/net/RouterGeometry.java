package org.pagefabric.hw.net;

/**
 * The arithmetic of a router-based topology: how many routers, which router each node hangs
 * off, each router's ports to other routers, and a deterministic minimal next hop. It holds no
 * per-pair state, so a route costs nothing to store and nothing to look up: a router asks
 * {@link #nextPort} for every packet it forwards. {@link RoutedTopology} turns a geometry into
 * switches and links.
 *
 * <p>Ports are numbered {@code 0..degree(r)-1}; a port is one direction of a full-duplex cable,
 * and the neighbour's cable back is one of its own ports.
 */
public interface RouterGeometry {
    /** The {@code network.topology} name this geometry builds. */
    String kind();

    /** Number of attached nodes, numbered 0..nodes()-1. */
    int nodes();

    /** Number of routers, numbered 0..routers()-1 (some may have no node attached). */
    int routers();

    /** The router node {@code node} is attached to. */
    int routerOf(int node);

    /** Number of router-to-router ports of {@code router}. */
    int degree(int router);

    /** The router at the far end of {@code port} of {@code router}. */
    int neighbor(int router, int port);

    /**
     * The port of {@code router} on the deterministic minimal route toward node {@code dstNode},
     * or -1 when {@code dstNode} is attached to {@code router} (eject). Allocation-free.
     */
    int nextPort(int router, int dstNode);

    /** Largest number of router-to-router hops a route takes, as the construction says. */
    int diameter();

    /** The dimensions chosen for the node count, e.g. {@code 11x10x10}, for reports. */
    String shape();
}
