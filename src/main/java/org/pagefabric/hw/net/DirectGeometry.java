package org.pagefabric.hw.net;

/**
 * A geometry with one node per router, as in a direct network: node i hangs off router i, and
 * routers beyond the node count only forward.
 */
abstract class DirectGeometry implements RouterGeometry {
    private final String kind;
    /** Number of attached nodes. */
    final int nodes;

    DirectGeometry(String kind, int nodes) {
        this.kind = kind;
        this.nodes = nodes;
    }

    @Override
    public final String kind() {
        return kind;
    }

    @Override
    public final int nodes() {
        return nodes;
    }

    @Override
    public final int routerOf(int node) {
        return node;
    }
}
