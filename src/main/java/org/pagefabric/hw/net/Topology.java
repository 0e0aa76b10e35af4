package org.pagefabric.hw.net;

import java.util.List;

/**
 * How nodes are wired: the links and switches, and a route for each pair of distinct nodes.
 * A topology is built by a {@link Factory} inside a {@link Network}: its links end at switches
 * or at the network's node delivery.
 */
public interface Topology {
    /** Number of nodes, numbered 0..nodeCount-1. */
    int nodeCount();

    /** The route from {@code src} to {@code dst} (distinct nodes). */
    Route route(int src, int dst);

    /**
     * The route a packet from {@code src} to {@code dst} carries, or null when the switches
     * route hop by hop (then {@link #route} builds a route only for inspection).
     */
    default Route sourceRoute(int src, int dst) {
        return route(src, dst);
    }

    /** The first link a packet from {@code src} to {@code dst} takes; must not allocate. */
    default Link firstLink(int src, int dst) {
        return route(src, dst).hop(0);
    }

    /** Ports over all switches (each a full-duplex pair of links); 0 without switches. */
    default int switchPorts() {
        return 0;
    }

    /** Every link, in a stable order. */
    List<Link> links();

    /** Every switch, in a stable order (empty for direct topologies). */
    List<Switch> switches();

    /** Builds a topology's components inside a network. */
    @FunctionalInterface
    interface Factory {
        /**
         * Creates the links and switches as children of {@code network}, connecting links that
         * end at a node to {@code network}.
         */
        Topology build(Network network, NetCosts costs);
    }
}
