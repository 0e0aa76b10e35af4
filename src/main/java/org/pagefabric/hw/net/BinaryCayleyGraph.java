package org.pagefabric.hw.net;

import java.util.ArrayList;
import java.util.List;

/**
 * A Cayley graph of the group of d-bit vectors under XOR: router x is wired to x XOR g for each
 * generator g, one node per router. With the d unit vectors as generators it is the hypercube;
 * with more generators taken from a linear error-correcting code it is a Long Hop network
 * (Tomic, "Network Throughput Optimization via Error Correcting Codes", arXiv 2013, reference
 * [73] of seed 002).
 *
 * <p>Routing: the graph looks the same from every router, so the distance from x to y is the
 * distance from 0 to x XOR y. One breadth-first search from 0 fills, for each of the 2^d
 * differences, the lowest-numbered generator that starts a shortest path; a router forwards on
 * that generator. Memory is 2^d bytes whatever the traffic; for the hypercube this is e-cube
 * routing (lowest differing bit first).
 */
public final class BinaryCayleyGraph extends DirectGeometry {
    private final int bits;
    private final int[] generators;
    private final byte[] nextGenerator;
    private final int diameter;

    /**
     * The Cayley graph of d-bit vectors with {@code generators} (non-zero, distinct, spanning)
     * holding {@code nodes} nodes.
     */
    public BinaryCayleyGraph(String kind, int nodes, int bits, int[] generators) {
        super(kind, nodes);
        if (bits < 0 || bits > 24) {
            throw new IllegalArgumentException("bits must be in 0..24, got " + bits);
        }
        if (nodes < 1 || nodes > (1 << bits)) {
            throw new IllegalArgumentException((1 << bits) + " routers cannot hold " + nodes + " nodes");
        }
        if (generators.length > Byte.MAX_VALUE) {
            throw new IllegalArgumentException("too many generators: " + generators.length);
        }
        this.bits = bits;
        this.generators = generators.clone();
        int size = 1 << bits;
        int[] dist = new int[size];
        java.util.Arrays.fill(dist, -1);
        int[] queue = new int[size];
        dist[0] = 0;
        int head = 0;
        int tail = 0;
        queue[tail++] = 0;
        int far = 0;
        while (head < tail) {
            int x = queue[head++];
            for (int g : generators) {
                int y = x ^ g;
                if (dist[y] < 0) {
                    dist[y] = dist[x] + 1;
                    far = Math.max(far, dist[y]);
                    queue[tail++] = y;
                }
            }
        }
        if (tail != size) {
            throw new IllegalArgumentException("the generators do not span all " + bits + "-bit vectors");
        }
        this.diameter = far;
        this.nextGenerator = new byte[size];
        for (int z = 1; z < size; z++) {
            for (int i = 0; i < generators.length; i++) {
                if (dist[z ^ generators[i]] == dist[z] - 1) {
                    nextGenerator[z] = (byte) i;
                    break;
                }
            }
        }
    }

    /** The smallest hypercube holding {@code nodes} nodes: 2^ceil(log2 n) routers, degree d. */
    public static BinaryCayleyGraph hypercube(int nodes) {
        int d = bitsFor(nodes);
        int[] g = new int[d];
        for (int i = 0; i < d; i++) {
            g[i] = 1 << i;
        }
        return new BinaryCayleyGraph("hypercube", nodes, d, g);
    }

    /**
     * A Long Hop network on the smallest cube holding {@code nodes} nodes. Tomic builds it from
     * the generator matrix of a linear code [m, d]: the m columns are the generators, and the
     * code's minimum distance sets the bisection. The seed does not say which code, so we take
     * the systematic code [I_d | J - I_d]: the d unit vectors (the hypercube) plus, for each j,
     * the complement of unit vector j (a long hop across all other dimensions), zero and repeated
     * columns dropped. For d &gt;= 3 its minimum distance is min(d, 4) against the hypercube's 1,
     * at twice the hypercube's degree.
     */
    public static BinaryCayleyGraph longHop(int nodes) {
        int d = bitsFor(nodes);
        int mask = (1 << d) - 1;
        List<Integer> gens = new ArrayList<>();
        for (int i = 0; i < d; i++) {
            gens.add(1 << i);
        }
        for (int i = 0; i < d; i++) {
            int g = ~(1 << i) & mask;
            if (g != 0 && !gens.contains(g)) {
                gens.add(g);
            }
        }
        return new BinaryCayleyGraph("long-hop", nodes, d, gens.stream().mapToInt(Integer::intValue).toArray());
    }

    private static int bitsFor(int nodes) {
        int d = 0;
        while ((1L << d) < nodes) {
            d++;
        }
        return d;
    }

    /** The generators, in port order. */
    public int[] generators() {
        return generators.clone();
    }

    @Override
    public int routers() {
        return 1 << bits;
    }

    @Override
    public int degree(int router) {
        return generators.length;
    }

    @Override
    public int neighbor(int router, int port) {
        return router ^ generators[port];
    }

    @Override
    public int nextPort(int router, int dstNode) {
        int z = router ^ dstNode;
        return z == 0 ? -1 : nextGenerator[z];
    }

    @Override
    public int diameter() {
        return diameter;
    }

    @Override
    public String shape() {
        return bits + "-cube, degree " + generators.length;
    }
}
