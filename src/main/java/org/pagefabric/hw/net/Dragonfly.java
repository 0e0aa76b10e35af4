package org.pagefabric.hw.net;

/**
 * A dragonfly (Kim, Dally, Scott and Abts, ISCA 2008; reference [47] of seed 002): groups of
 * {@code a} routers, each router with {@code p} nodes, {@code a - 1} local ports (the group is
 * fully connected) and {@code h} global ports; every pair of groups is joined by one global
 * cable. We take the balanced configuration the paper recommends, a = 2p = 2h, with the
 * smallest h whose largest machine (a h + 1 groups) holds n nodes, and build only
 * g = ceil(n / (a p)) groups.
 *
 * <p>Global cables: the cable from group G to group T leaves G on its relative index
 * q = (T - G - 1) mod g, at router q / h, global port q mod h; it lands in T on T's relative
 * index for G. Routing is the paper's minimal routing: a local hop to G's router holding the
 * cable to T, the global hop, a local hop to the destination router. At most one global hop;
 * diameter 3 router hops (1 with a single group).
 */
public final class Dragonfly implements RouterGeometry {
    private final int nodes;
    private final int h;
    private final int p;
    private final int a;
    private final int g;

    /** A dragonfly with {@code h} global ports per router, p = h, a = 2h, holding {@code nodes} nodes. */
    public Dragonfly(int nodes, int h) {
        if (h < 1) {
            throw new IllegalArgumentException("a dragonfly needs h >= 1, got " + h);
        }
        this.h = h;
        this.p = h;
        this.a = 2 * h;
        long perGroup = (long) a * p;
        long groups = (nodes + perGroup - 1) / perGroup;
        if (nodes < 1 || groups > (long) a * h + 1) {
            throw new IllegalArgumentException("a dragonfly with h=" + h + " cannot hold " + nodes + " nodes");
        }
        this.g = (int) Math.max(1, groups);
        this.nodes = nodes;
    }

    /** The balanced dragonfly with the smallest h that holds {@code nodes} nodes. */
    public static Dragonfly fitting(int nodes) {
        int h = 1;
        while ((long) 2 * h * h * (2L * h * h + 1) < nodes) {
            h++;
        }
        return new Dragonfly(nodes, h);
    }

    /** Routers per group. */
    public int routersPerGroup() {
        return a;
    }

    /** Number of groups. */
    public int groups() {
        return g;
    }

    @Override
    public String kind() {
        return "dragonfly";
    }

    @Override
    public int nodes() {
        return nodes;
    }

    @Override
    public int routers() {
        return g * a;
    }

    @Override
    public int routerOf(int node) {
        return node / p;
    }

    @Override
    public int degree(int router) {
        int local = router % a;
        int globals = Math.max(0, Math.min(h, (g - 1) - local * h));
        return a - 1 + globals;
    }

    /** Whether {@code port} of a router is a global port (the rest are local). */
    public boolean isGlobal(int port) {
        return port >= a - 1;
    }

    @Override
    public int neighbor(int router, int port) {
        int group = router / a;
        int local = router % a;
        if (port < a - 1) {
            return group * a + (port < local ? port : port + 1);
        }
        int q = local * h + (port - (a - 1));
        int target = (group + 1 + q) % g;
        int back = Math.floorMod(group - target - 1, g);
        return target * a + back / h;
    }

    @Override
    public int nextPort(int router, int dstNode) {
        int t = dstNode / p;
        if (t == router) {
            return -1;
        }
        int group = router / a;
        int local = router % a;
        int tGroup = t / a;
        int goal;
        if (tGroup == group) {
            goal = t % a;
        } else {
            int q = Math.floorMod(tGroup - group - 1, g);
            int gateway = q / h;
            if (gateway == local) {
                return a - 1 + q % h;
            }
            goal = gateway;
        }
        return goal < local ? goal : goal - 1;
    }

    @Override
    public int diameter() {
        return g == 1 ? 1 : 3;
    }

    @Override
    public String shape() {
        return g + " groups x " + a + " routers x " + p + " nodes, h=" + h;
    }
}
