package org.pagefabric.hw.net;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Every node wired to one switch: {@code up<i>} carries node i to the switch, {@code down<i>}
 * carries the switch to node i. Every route is two links and one switch hop; packets from
 * several sources to one destination contend for its {@code down} link.
 */
public final class Star implements Topology {
    private final int nodes;
    private final Link[] up;
    private final Link[] down;
    private final Switch sw;
    private final Route[][] routes;
    private final List<Link> links;

    private Star(Network net, NetCosts costs, int nodes) {
        if (nodes < 2) {
            throw new IllegalArgumentException("a star needs at least 2 nodes, got " + nodes);
        }
        this.nodes = nodes;
        this.sw = new Switch(net.simulator(), net, "switch", costs.switchHopLatencyPs(), net.pool());
        this.up = new Link[nodes];
        this.down = new Link[nodes];
        List<Link> all = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            up[i] = new Link(net.simulator(), net, "up" + i, costs.link(), net.pool());
            up[i].connect(sw);
            all.add(up[i]);
        }
        for (int i = 0; i < nodes; i++) {
            down[i] = new Link(net.simulator(), net, "down" + i, costs.link(), net.pool());
            down[i].connect(net);
            all.add(down[i]);
        }
        this.links = Collections.unmodifiableList(all);
        this.routes = new Route[nodes][];
    }

    /** A factory for a star of {@code nodes} nodes around one switch. */
    public static Topology.Factory factory(int nodes) {
        return (net, costs) -> new Star(net, costs, nodes);
    }

    @Override
    public int nodeCount() {
        return nodes;
    }

    @Override
    public Route route(int src, int dst) {
        // Built on first use: n^2 routes up front would dominate memory for large stars.
        Route[] row = routes[src];
        if (row == null) {
            row = routes[src] = new Route[nodes];
        }
        Route r = row[dst];
        if (r == null) {
            r = row[dst] = new Route(up[src], down[dst]);
        }
        return r;
    }

    /** The switch. */
    public Switch center() {
        return sw;
    }

    @Override
    public List<Link> links() {
        return links;
    }

    @Override
    public int switchPorts() {
        return nodes;
    }

    @Override
    public List<Switch> switches() {
        return List.of(sw);
    }
}
