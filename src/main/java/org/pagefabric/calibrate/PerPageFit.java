package org.pagefabric.calibrate;

/**
 * Splits a call's time into a fixed part and a part per page from two sizes, 1 page and
 * {@code n} pages: per page = (t(n) - t(1)) / (n - 1), base = t(1) - per page. A least-squares
 * line over many sizes would let the noise of the largest size (hundreds of microseconds) swamp a
 * base of about a microsecond; the 1-page call measures the base almost directly.
 */
final class PerPageFit {
    /** Calls of one page timed per repetition; their median is the repetition's 1-page time. */
    private static final int SMALL_TRIALS = 5;

    private PerPageFit() {
    }

    /** One timed call on a given number of pages. */
    @FunctionalInterface
    interface TimedCall {
        /** Nanoseconds the call took on {@code pages} pages. */
        double nanos(int pages);
    }

    /**
     * Times {@code call} on 1 page (median of a few trials) and on {@code pages} pages in each
     * repetition after the warm-up.
     */
    static Sample sample(ProbeContext ctx, int pages, TimedCall call) {
        int reps = ctx.repetitions();
        double[] one = new double[reps];
        double[] many = new double[reps];
        double[] trials = new double[SMALL_TRIALS];
        for (int rep = -ctx.warmup(); rep < reps; rep++) {
            ctx.mappings().checkRunning();
            for (int t = 0; t < SMALL_TRIALS; t++) {
                trials[t] = call.nanos(1);
            }
            double m = call.nanos(pages);
            if (rep >= 0) {
                one[rep] = median(trials);
                many[rep] = m;
            }
        }
        return new Sample(one, many, pages);
    }

    /** Times of each repetition on 1 page and on {@code pages} pages, in ns. */
    record Sample(double[] one, double[] many, int pages) {
        /** Records the fitted base (us) and per-page cost (ns) under the probe's name. */
        void add(ProbeContext ctx, String probe, String base, String perPage) {
            ctx.add(probe, base, "us", MlockProbe.us(PerPageFit.base(one, many, pages)));
            ctx.add(probe, perPage, "ns", PerPageFit.perPage(one, many, pages));
        }
    }

    /**
     * Per-page cost of each repetition, never below zero: where the per-page part is a few
     * nanoseconds (mincore), the 1-page call's noise can exceed the whole difference, and a
     * negative cost is that noise, not a page that gives time back.
     */
    static double[] perPage(double[] one, double[] many, int pages) {
        double[] out = new double[one.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = Math.max(0, (many[i] - one[i]) / (pages - 1));
        }
        return out;
    }

    /** Fixed cost of each repetition. */
    static double[] base(double[] one, double[] many, int pages) {
        double[] per = perPage(one, many, pages);
        double[] out = new double[one.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = one[i] - per[i];
        }
        return out;
    }

    /** Throughput in GB/s (decimal) of 4 KiB pages at the given ns per page. */
    static double[] gigabytesPerSecond(double[] nsPerPage) {
        double[] out = new double[nsPerPage.length];
        for (int i = 0; i < out.length; i++) {
            out[i] = nsPerPage[i] > 0 ? Libc.PAGE / nsPerPage[i] : 0;
        }
        return out;
    }

    /** Median of a few values (the inner trials of one repetition). */
    static double median(double[] v) {
        return new Measurement("", "", "", v).median();
    }
}
