package org.pagefabric.calibrate;

import java.util.Arrays;

/**
 * One measured quantity: its repetitions' values and their median and spread (minimum, first and
 * third quartiles, maximum). Quartiles interpolate linearly between order statistics.
 */
public final class Measurement {
    private final String probe;
    private final String quantity;
    private final String unit;
    private final double[] sorted;

    /**
     * @param probe the probe that measured it ({@code mlock}, {@code touch}, ...)
     * @param quantity what was measured, in words
     * @param unit the unit of every sample ({@code ns}, {@code us}, {@code GB/s})
     * @param samples one value per timed repetition; at least one
     */
    public Measurement(String probe, String quantity, String unit, double[] samples) {
        if (samples.length == 0) {
            throw new IllegalArgumentException("no samples for " + probe + " " + quantity);
        }
        this.probe = probe;
        this.quantity = quantity;
        this.unit = unit;
        this.sorted = samples.clone();
        Arrays.sort(sorted);
    }

    /** The probe's name. */
    public String probe() {
        return probe;
    }

    /** What was measured. */
    public String quantity() {
        return quantity;
    }

    /** The unit of the values. */
    public String unit() {
        return unit;
    }

    /** Number of timed repetitions. */
    public int runs() {
        return sorted.length;
    }

    /** The median. */
    public double median() {
        return quantile(0.5);
    }

    /** The first quartile. */
    public double p25() {
        return quantile(0.25);
    }

    /** The third quartile. */
    public double p75() {
        return quantile(0.75);
    }

    /** The smallest value. */
    public double min() {
        return sorted[0];
    }

    /** The largest value. */
    public double max() {
        return sorted[sorted.length - 1];
    }

    /** The {@code q} quantile, {@code 0 <= q <= 1}. */
    public double quantile(double q) {
        double pos = q * (sorted.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(lo + 1, sorted.length - 1);
        return sorted[lo] + (pos - lo) * (sorted[hi] - sorted[lo]);
    }

    @Override
    public String toString() {
        return probe + " " + quantity + ": " + median() + " " + unit + " (" + runs() + " runs)";
    }
}
