package org.pagefabric.hw.net;

import java.util.Arrays;
import java.util.StringJoiner;

/**
 * A D-dimensional torus of routers with one node per router (the node of a Cray Gemini or an
 * IBM Blue Gene hangs off its own router), wrap-around links in every dimension and
 * dimension-order routing: dimension 0 first, each dimension the shorter way round (the
 * positive direction on a tie).
 *
 * <p>Size: the smallest near-cubic torus holding n nodes. Start from k^D with k the smallest
 * integer such that k^D &gt;= n, then repeatedly shrink the largest dimension (the last one on
 * ties) by one while the product still holds n. So 1024 nodes give 11x10x10 in 3-D and 4^5 in
 * 5-D, 8 nodes give 2x2x2 and 2x2x2x1x1. Routers beyond n have no node but forward.
 *
 * <p>A dimension of size 2 has one port (both directions reach the same neighbour), of size 1
 * none, otherwise two (+ then -). Diameter: the sum of floor(k_i / 2).
 */
public final class Torus extends DirectGeometry {
    private final int[] dims;
    private final int[] stride;
    private final int[] portBase;
    private final int[] portCount;
    private final int routers;
    private final int degree;

    /** A torus with the given dimension sizes (dimension 0 varies fastest) holding {@code nodes} nodes. */
    public Torus(String kind, int nodes, int... dims) {
        super(kind, nodes);
        this.dims = dims.clone();
        this.stride = new int[dims.length];
        this.portBase = new int[dims.length];
        this.portCount = new int[dims.length];
        long r = 1;
        int ports = 0;
        for (int d = 0; d < dims.length; d++) {
            if (dims[d] < 1) {
                throw new IllegalArgumentException("torus dimension " + d + " must be >= 1, got " + dims[d]);
            }
            stride[d] = (int) r;
            r *= dims[d];
            if (r > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("torus " + Arrays.toString(dims) + " is too large");
            }
            portBase[d] = ports;
            portCount[d] = dims[d] >= 3 ? 2 : dims[d] - 1;
            ports += portCount[d];
        }
        if (nodes < 1 || nodes > r) {
            throw new IllegalArgumentException("a torus of " + r + " routers cannot hold " + nodes + " nodes");
        }
        this.routers = (int) r;
        this.degree = ports;
    }

    /** The smallest near-cubic {@code dimensions}-D torus holding {@code nodes} nodes (see the class comment). */
    public static Torus fitting(String kind, int nodes, int dimensions) {
        int k = 1;
        while (pow(k, dimensions) < nodes) {
            k++;
        }
        int[] dims = new int[dimensions];
        Arrays.fill(dims, k);
        while (true) {
            int largest = 0;
            for (int d = 0; d < dimensions; d++) {
                if (dims[d] >= dims[largest]) {
                    largest = d;
                }
            }
            if (dims[largest] == 1) {
                break;
            }
            long product = 1;
            for (int d = 0; d < dimensions; d++) {
                product *= d == largest ? dims[d] - 1 : dims[d];
            }
            if (product < nodes) {
                break;
            }
            dims[largest]--;
        }
        return new Torus(kind, nodes, dims);
    }

    private static long pow(long k, int e) {
        long p = 1;
        for (int i = 0; i < e; i++) {
            p *= k;
        }
        return p;
    }

    /** The size of each dimension. */
    public int[] dims() {
        return dims.clone();
    }

    @Override
    public int routers() {
        return routers;
    }

    @Override
    public int degree(int router) {
        return degree;
    }

    @Override
    public int neighbor(int router, int port) {
        for (int d = 0; d < dims.length; d++) {
            if (port < portBase[d] + portCount[d]) {
                int k = dims[d];
                int c = (router / stride[d]) % k;
                int step = port == portBase[d] ? 1 : k - 1;
                int nc = (c + step) % k;
                return router + (nc - c) * stride[d];
            }
        }
        throw new IllegalArgumentException("router " + router + " has no port " + port);
    }

    @Override
    public int nextPort(int router, int dstNode) {
        for (int d = 0; d < dims.length; d++) {
            int k = dims[d];
            int c = (router / stride[d]) % k;
            int t = (dstNode / stride[d]) % k;
            if (c != t) {
                int ahead = (t - c + k) % k;
                return ahead * 2 <= k ? portBase[d] : portBase[d] + 1;
            }
        }
        return -1;
    }

    @Override
    public int diameter() {
        int h = 0;
        for (int k : dims) {
            h += k / 2;
        }
        return h;
    }

    @Override
    public String shape() {
        StringJoiner j = new StringJoiner("x");
        for (int k : dims) {
            j.add(Integer.toString(k));
        }
        return j.toString();
    }
}
