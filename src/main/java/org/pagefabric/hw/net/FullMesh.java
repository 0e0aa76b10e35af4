package org.pagefabric.hw.net;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every node wired to every other by a dedicated full-duplex link ({@code link<i>-<j>} carries
 * i to j): no switches, no contention between pairs. Two nodes are the smallest full mesh.
 */
public final class FullMesh implements Topology {
    private final int nodes;
    private final Route[][] routes;
    private final List<Link> links;

    private FullMesh(Network net, NetCosts costs, int nodes) {
        if (nodes < 2) {
            throw new IllegalArgumentException("a full mesh needs at least 2 nodes, got " + nodes);
        }
        this.nodes = nodes;
        this.routes = new Route[nodes][nodes];
        List<Link> all = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            for (int j = 0; j < nodes; j++) {
                if (i != j) {
                    Link l = new Link(net.simulator(), net, "link" + i + "-" + j, costs.link(), net.pool());
                    l.connect(net);
                    all.add(l);
                    routes[i][j] = new Route(l);
                }
            }
        }
        this.links = Collections.unmodifiableList(all);
    }

    /** A factory for two nodes joined by one full-duplex link. */
    public static Topology.Factory twoNodes() {
        return factory(2);
    }

    /** A factory for a full mesh of {@code nodes} nodes. */
    public static Topology.Factory factory(int nodes) {
        return (net, costs) -> new FullMesh(net, costs, nodes);
    }

    @Override
    public int nodeCount() {
        return nodes;
    }

    @Override
    public Route route(int src, int dst) {
        return routes[src][dst];
    }

    @Override
    public List<Link> links() {
        return links;
    }

    @Override
    public List<Switch> switches() {
        return List.of();
    }
}
