package org.pagefabric.sim.stat;

import java.util.List;

/**
 * Count, sum, minimum, maximum, mean and standard deviation of recorded samples, without
 * storing them. The variance uses Welford's update, stable for long runs of close values.
 */
public final class Accumulator extends DeclaredStatistic {
    private long count;
    private double sum;
    private double mean;
    private double m2;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;

    /** An accumulator; components declare theirs through the registry. */
    public Accumulator(String name, String unit, String description) {
        super(name, unit, description);
    }

    /** Records one sample. */
    public void record(double x) {
        count++;
        sum += x;
        double d = x - mean;
        mean += d / count;
        m2 += d * (x - mean);
        if (x < min) {
            min = x;
        }
        if (x > max) {
            max = x;
        }
    }

    /**
     * Records {@code n} samples of value {@code x}, leaving every field as {@code n} calls of
     * {@link #record} would: zeros onto samples that are all zero take one step, anything else
     * runs the updates one by one (each rounds on its own).
     */
    public void recordRepeated(double x, long n) {
        if (n <= 0) {
            return;
        }
        if (isPositiveZero(x) && isPositiveZero(mean) && isPositiveZero(m2) && isPositiveZero(sum)) {
            // each update adds +0.0 to sum, mean and m2, which leaves +0.0 as it is
            count += n;
            if (x < min) {
                min = x;
            }
            if (x > max) {
                max = x;
            }
            return;
        }
        for (long i = 0; i < n; i++) {
            record(x);
        }
    }

    private static boolean isPositiveZero(double v) {
        return Double.doubleToRawLongBits(v) == 0;
    }

    /** Number of samples. */
    public long count() {
        return count;
    }

    /** Sum of samples. */
    public double sum() {
        return sum;
    }

    /** Mean, or 0 without samples. */
    public double mean() {
        return count == 0 ? 0 : mean;
    }

    /** Sample standard deviation, or 0 with fewer than two samples. */
    public double stddev() {
        return count < 2 ? 0 : Math.sqrt(m2 / (count - 1));
    }

    /** Smallest sample, or 0 without samples. */
    public double min() {
        return count == 0 ? 0 : min;
    }

    /** Largest sample, or 0 without samples. */
    public double max() {
        return count == 0 ? 0 : max;
    }

    @Override
    public void reset() {
        count = 0;
        sum = 0;
        mean = 0;
        m2 = 0;
        min = Double.POSITIVE_INFINITY;
        max = Double.NEGATIVE_INFINITY;
    }

    @Override
    public List<Value> values() {
        return List.of(new Value(name, "count", count, "count"), new Value(name, "sum", sum, unit),
                new Value(name, "mean", mean(), unit), new Value(name, "stddev", stddev(), unit),
                new Value(name, "min", min(), unit), new Value(name, "max", max(), unit));
    }
}
