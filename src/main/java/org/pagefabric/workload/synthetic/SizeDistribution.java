package org.pagefabric.workload.synthetic;

import java.util.Locale;
import org.pagefabric.sim.RandomStream;

/**
 * How an application's buffer sizes spread between a smallest and a largest: all alike, evenly
 * spread, or evenly spread over the orders of magnitude (log-uniform, the shape of message sizes
 * in most MPI traces, where 1 KiB to 2 KiB is as likely as 1 MiB to 2 MiB).
 */
enum SizeDistribution {
    /** Every buffer is the largest size. */
    FIXED,
    /** Sizes uniform in {@code [min, max]}. */
    UNIFORM,
    /** Sizes whose logarithm is uniform in {@code [log min, log max]}. */
    LOG_UNIFORM;

    /** The names the {@code size_dist} parameter takes, in this order. */
    static final String[] NAMES = {"fixed", "uniform", "log-uniform"};

    /** The distribution written as {@code name} (one of {@link #NAMES}). */
    static SizeDistribution named(String name) {
        return valueOf(name.toUpperCase(Locale.ROOT).replace('-', '_'));
    }

    /**
     * One size in bytes, in {@code [min, max]}; {@link #FIXED} draws nothing from {@code random}, so
     * the other streams of a run do not shift when only the distribution changes.
     */
    long draw(RandomStream random, long min, long max) {
        return switch (this) {
            case FIXED -> max;
            case UNIFORM -> min + random.nextLong(max - min + 1);
            case LOG_UNIFORM -> {
                double lo = Math.log(min);
                double hi = Math.log(max + 1.0);
                // floor of a value in [min, max + 1): every size in range, none outside
                long v = (long) Math.floor(Math.exp(lo + random.nextDouble() * (hi - lo)));
                yield Math.clamp(v, min, max);
            }
        };
    }
}
