package org.pagefabric.examples.mrmap;

import org.pagefabric.config.Parameter;

/** The cost the example policy adds to every profile, with its own default. */
public final class MrMapParameters {
    /** One lookup of a key in the software memory-region map. */
    public static final Parameter LOOKUP = Parameter.time("example.mr_map.lookup",
            "One key lookup in a software memory-region map (a balanced tree of regions, as libfabric's ofi_mr_map).")
            .withDefault("60 ns", "assumed: a few dependent cache misses in a red-black tree of a handful of regions");

    private MrMapParameters() {
    }
}
