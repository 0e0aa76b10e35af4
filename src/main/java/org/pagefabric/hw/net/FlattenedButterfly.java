package org.pagefabric.hw.net;

/**
 * A flattened butterfly (Kim, Dally and Abts, ISCA 2007; reference [46] of seed 002), the
 * k-ary 3-flat: routers in a two-dimensional array of k columns, each router fully connected
 * to every other router of its row and of its column, k nodes per router (concentration k).
 * k is the smallest with k^3 &gt;= n, and only ceil(n / k^2) rows are built.
 *
 * <p>Routing is minimal and dimension-ordered: one hop to the destination's column along the
 * row, then one hop to its row along the column. Diameter 2 router hops (fewer when there is one
 * row or one column).
 */
public final class FlattenedButterfly implements RouterGeometry {
    private final int nodes;
    private final int k;
    private final int rows;

    /** A k-ary 3-flat with as many rows as {@code nodes} nodes need. */
    public FlattenedButterfly(int nodes, int k) {
        if (k < 1 || nodes < 1 || (long) k * k * k < nodes) {
            throw new IllegalArgumentException("a " + k + "-ary 3-flat cannot hold " + nodes + " nodes");
        }
        this.nodes = nodes;
        this.k = k;
        this.rows = (int) Math.ceilDiv((long) nodes, (long) k * k);
    }

    /** The k-ary 3-flat with the smallest k holding {@code nodes} nodes. */
    public static FlattenedButterfly fitting(int nodes) {
        int k = 1;
        while ((long) k * k * k < nodes) {
            k++;
        }
        return new FlattenedButterfly(nodes, k);
    }

    @Override
    public String kind() {
        return "flattened-butterfly";
    }

    @Override
    public int nodes() {
        return nodes;
    }

    @Override
    public int routers() {
        return k * rows;
    }

    @Override
    public int routerOf(int node) {
        return node / k;
    }

    @Override
    public int degree(int router) {
        return (k - 1) + (rows - 1);
    }

    @Override
    public int neighbor(int router, int port) {
        int col = router % k;
        int row = router / k;
        if (port < k - 1) {
            return row * k + (port < col ? port : port + 1);
        }
        int r = port - (k - 1);
        return (r < row ? r : r + 1) * k + col;
    }

    @Override
    public int nextPort(int router, int dstNode) {
        int t = dstNode / k;
        int col = router % k;
        int tCol = t % k;
        if (col != tCol) {
            return tCol < col ? tCol : tCol - 1;
        }
        int row = router / k;
        int tRow = t / k;
        if (row != tRow) {
            return (k - 1) + (tRow < row ? tRow : tRow - 1);
        }
        return -1;
    }

    @Override
    public int diameter() {
        return (k > 1 ? 1 : 0) + (rows > 1 ? 1 : 0);
    }

    @Override
    public String shape() {
        return rows + " rows x " + k + " columns x " + k + " nodes";
    }
}
