package org.pagefabric.hw.net;

import java.util.List;

/** The router-based topologies by their {@code network.topology} names, sized from the node count. */
public final class Topologies {
    /** The names {@link #geometry} accepts, in documentation order. */
    public static final List<String> ROUTED = List.of("torus3d", "torus5d", "hypercube", "dragonfly",
            "flattened-butterfly", "long-hop", "fat-tree");

    private Topologies() {
    }

    /**
     * The geometry named {@code kind} for {@code nodes} nodes.
     *
     * @throws IllegalArgumentException for a name not in {@link #ROUTED}
     */
    public static RouterGeometry geometry(String kind, int nodes) {
        return switch (kind) {
            case "torus3d" -> Torus.fitting(kind, nodes, 3);
            case "torus5d" -> Torus.fitting(kind, nodes, 5);
            case "hypercube" -> BinaryCayleyGraph.hypercube(nodes);
            case "long-hop" -> BinaryCayleyGraph.longHop(nodes);
            case "dragonfly" -> Dragonfly.fitting(nodes);
            case "flattened-butterfly" -> FlattenedButterfly.fitting(nodes);
            case "fat-tree" -> FatTree.fitting(nodes);
            default -> throw new IllegalArgumentException("unknown topology '" + kind + "'; valid: "
                    + String.join(", ", ROUTED));
        };
    }
}
