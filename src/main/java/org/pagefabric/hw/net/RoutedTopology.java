package org.pagefabric.hw.net;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * A router-based topology built from a {@link RouterGeometry}: one {@link Switch} per router,
 * named {@code router<r>}, routing hop by hop; node i sends on {@code inject<i>} to its router
 * and receives on {@code eject<i>}; router r's port j is link {@code r<r>p<j>}. Every link has
 * the profile's link parameters and every router the switch hop latency, so a route of h router
 * hops costs h + 2 links and h + 1 switch traversals.
 *
 * <p>Nothing is stored per pair of nodes: building is linear in routers plus ports, and
 * forwarding a packet asks the geometry for a port (no allocation). {@link #route} walks the
 * same forwarding decisions to build a {@link Route} for inspection only.
 */
public final class RoutedTopology implements Topology {
    private final RouterGeometry geometry;
    private final Switch[] routers;
    private final Link[] inject;
    private final Link[] eject;
    private final Link[][] ports;
    private final List<Link> links;
    private final int switchPorts;

    private RoutedTopology(Network net, NetCosts costs, RouterGeometry geometry) {
        this.geometry = geometry;
        int n = geometry.nodes();
        int r = geometry.routers();
        this.routers = new Switch[r];
        this.inject = new Link[n];
        this.eject = new Link[n];
        this.ports = new Link[r][];
        List<Link> all = new ArrayList<>();
        for (int i = 0; i < r; i++) {
            final int router = i;
            routers[i] = new Switch(net.simulator(), net, "router" + i, costs.switchHopLatencyPs(), net.pool(),
                    p -> next(router, p));
        }
        int portCount = n;
        for (int i = 0; i < n; i++) {
            inject[i] = new Link(net.simulator(), net, "inject" + i, costs.link(), net.pool());
            inject[i].connect(routers[geometry.routerOf(i)]);
            all.add(inject[i]);
            eject[i] = new Link(net.simulator(), net, "eject" + i, costs.link(), net.pool());
            eject[i].connect(net);
            all.add(eject[i]);
        }
        for (int i = 0; i < r; i++) {
            int degree = geometry.degree(i);
            ports[i] = new Link[degree];
            for (int j = 0; j < degree; j++) {
                Link l = new Link(net.simulator(), net, "r" + i + "p" + j, costs.link(), net.pool());
                l.connect(routers[geometry.neighbor(i, j)]);
                ports[i][j] = l;
                all.add(l);
            }
            portCount += degree;
        }
        this.links = Collections.unmodifiableList(all);
        this.switchPorts = portCount;
    }

    /** A factory for the topology {@code geometry} describes. */
    public static Topology.Factory factory(RouterGeometry geometry) {
        return (net, costs) -> new RoutedTopology(net, costs, geometry);
    }

    private Link next(int router, Packet p) {
        int port = geometry.nextPort(router, p.dst);
        return port < 0 ? eject[p.dst] : ports[router][port];
    }

    /** The geometry the topology was built from. */
    public RouterGeometry geometry() {
        return geometry;
    }

    @Override
    public int nodeCount() {
        return geometry.nodes();
    }

    /** Router hops (switch-to-switch links) from {@code src}'s router to {@code dst}'s. */
    public int routerHops(int src, int dst) {
        int hops = 0;
        int at = geometry.routerOf(src);
        for (int port = geometry.nextPort(at, dst); port >= 0; port = geometry.nextPort(at, dst)) {
            at = geometry.neighbor(at, port);
            if (++hops > geometry.routers()) {
                throw new IllegalStateException(geometry.kind() + " routing loops from " + src + " to " + dst);
            }
        }
        return hops;
    }

    /** Builds the route the switches will take; allocates, for inspection and tests only. */
    @Override
    public Route route(int src, int dst) {
        Link[] hops = new Link[routerHops(src, dst) + 2];
        hops[0] = inject[src];
        int at = geometry.routerOf(src);
        int i = 1;
        for (int port = geometry.nextPort(at, dst); port >= 0; port = geometry.nextPort(at, dst)) {
            hops[i++] = ports[at][port];
            at = geometry.neighbor(at, port);
        }
        hops[i] = eject[dst];
        return new Route(Arrays.copyOf(hops, i + 1));
    }

    @Override
    public Route sourceRoute(int src, int dst) {
        return null;
    }

    @Override
    public Link firstLink(int src, int dst) {
        return inject[src];
    }

    @Override
    public int switchPorts() {
        return switchPorts;
    }

    @Override
    public List<Link> links() {
        return links;
    }

    @Override
    public List<Switch> switches() {
        return List.of(routers);
    }
}
