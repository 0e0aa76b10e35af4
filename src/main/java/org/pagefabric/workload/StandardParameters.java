package org.pagefabric.workload;

/**
 * The parameters the point-to-point microbenchmarks share, declared once so that every one of
 * them names, documents and bounds its message size and iteration count the same way.
 */
public final class StandardParameters {
    /** Column name of the message size. */
    public static final String SIZE = "size_B";
    /** Column name of the number of timed iterations. */
    public static final String ITERATIONS = "iterations";
    /** Column name of the application scheme, for the workloads that have schemes. */
    public static final String SCHEME = "scheme";

    private StandardParameters() {
    }

    /**
     * The message-size parameter with a workload's own default.
     *
     * @param defaultBytes the default size in bytes
     */
    public static WorkloadParameter size(long defaultBytes) {
        // 1 GiB bound: segments are real mapped memory in the simulated address space.
        return WorkloadParameter.integer(SIZE, defaultBytes, "B", "message size in bytes", 1, 1L << 30);
    }

    /** The timed-iteration parameter (warm-up iterations come on top). */
    public static WorkloadParameter iterations() {
        // 20 as in `pagefabric run`; the bound keeps per-iteration arrays within an int index.
        return WorkloadParameter.integer(ITERATIONS, 20, "", "timed iterations after the warm-up", 1,
                Integer.MAX_VALUE - 64);
    }

    /**
     * The application-scheme parameter of {@code workload}: one of the schemes the
     * {@link SchemeRegistry} lists for it, each of which names the registration it needs.
     *
     * @param defaultScheme the scheme a run without one uses
     */
    public static WorkloadParameter scheme(String workload, String defaultScheme) {
        return WorkloadParameter.choice(SCHEME, defaultScheme, "application scheme (pagefabric info schemes); the"
                + " policy must give the registration it needs", SchemeRegistry.standard().names(workload));
    }

    /** The message size of a point's values. */
    public static long size(Params p) {
        return p.longValue(SIZE);
    }

    /** The iteration count of a point's values. */
    public static int iterations(Params p) {
        return p.intValue(ITERATIONS);
    }
}
