package org.pagefabric.hw.net;

/**
 * A three-level k-ary fat tree of k-port switches (the folded Clos of Al-Fares, Loukissas and
 * Vahdat, SIGCOMM 2008): pods of k/2 edge and k/2 aggregation switches, k/2 nodes per edge
 * switch, every edge switch wired to every aggregation switch of its pod, aggregation switch a
 * of every pod wired to the k/2 core switches (a, 0..k/2-1). k is the smallest even number with
 * k^3/4 &gt;= n; only ceil(n / (k/2)^2) pods are built, and the core only when there are two or
 * more.
 *
 * <p>Routers are numbered edges first (pod-major), then aggregation switches, then the core.
 * Routing is up-down, deterministic and spread by destination: a node's packet climbs to
 * aggregation switch (destination's index on its edge switch) and, between pods, to core switch
 * (that aggregation index, destination's edge index in its pod), then descends. Diameter 4
 * router hops between pods, 2 inside one.
 */
public final class FatTree implements RouterGeometry {
    private final int nodes;
    private final int half;
    private final int pods;
    private final int aggBase;
    private final int coreBase;
    private final int routers;

    /** A k-ary fat tree ({@code k} even) with as many pods as {@code nodes} nodes need. */
    public FatTree(int nodes, int k) {
        if (k < 2 || k % 2 != 0 || nodes < 1 || (long) k * k * k / 4 < nodes) {
            throw new IllegalArgumentException("a " + k + "-ary fat tree cannot hold " + nodes + " nodes");
        }
        this.nodes = nodes;
        this.half = k / 2;
        this.pods = (int) Math.ceilDiv((long) nodes, (long) half * half);
        this.aggBase = pods * half;
        this.coreBase = 2 * pods * half;
        this.routers = coreBase + (pods > 1 ? half * half : 0);
    }

    /** The fat tree with the smallest even k holding {@code nodes} nodes. */
    public static FatTree fitting(int nodes) {
        int k = 2;
        while ((long) k * k * k / 4 < nodes) {
            k += 2;
        }
        return new FatTree(nodes, k);
    }

    /** Number of pods built. */
    public int pods() {
        return pods;
    }

    @Override
    public String kind() {
        return "fat-tree";
    }

    @Override
    public int nodes() {
        return nodes;
    }

    @Override
    public int routers() {
        return routers;
    }

    @Override
    public int routerOf(int node) {
        return node / half;
    }

    @Override
    public int degree(int router) {
        if (router < aggBase) {
            return half;
        }
        if (router < coreBase) {
            return pods > 1 ? 2 * half : half;
        }
        return pods;
    }

    @Override
    public int neighbor(int router, int port) {
        if (router < aggBase) {
            int pod = router / half;
            return aggBase + pod * half + port;
        }
        if (router < coreBase) {
            int i = router - aggBase;
            int pod = i / half;
            int agg = i % half;
            return port < half ? pod * half + port : coreBase + agg * half + (port - half);
        }
        int agg = (router - coreBase) / half;
        return aggBase + port * half + agg;
    }

    @Override
    public int nextPort(int router, int dstNode) {
        int edge = dstNode / half;
        int dstPod = edge / half;
        if (router < aggBase) {
            return router == edge ? -1 : dstNode % half;
        }
        if (router < coreBase) {
            int pod = (router - aggBase) / half;
            return pod == dstPod ? edge % half : half + edge % half;
        }
        return dstPod;
    }

    @Override
    public int diameter() {
        return pods > 1 ? 4 : (half > 1 && nodes > half ? 2 : 0);
    }

    @Override
    public String shape() {
        return pods + " pods of a " + (2 * half) + "-ary fat tree";
    }
}
