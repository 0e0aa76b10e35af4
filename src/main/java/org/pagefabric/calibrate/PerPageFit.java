package org.pagefabric.calibrate;

/**
 * Splits a call's time into a fixed part and a part per page from two sizes, 1 page and
 * {@code n} pages: per page = (t(n) - t(1)) / (n - 1), base = t(1) - per page. A least-squares
 * line over many sizes would let the noise of the largest size (hundreds of microseconds) swamp a
 * base of about a microsecond; the 1-page call measures the base almost directly.
 */
final class PerPageFit {
    private PerPageFit() {
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
