package org.pagefabric.sim.stat;

import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * Latencies in picoseconds, kept in an HdrHistogram with three significant digits and a
 * resolution of one nanosecond: percentiles without storing samples, in memory that grows with
 * the range of values, not their number.
 *
 * <p>The histogram is created at the first sample: a cluster of thousands of nodes declares
 * histograms on every core, and most of them never record anything.
 *
 * <p>Zero latencies are counted aside and added to the histogram in one step before it is read:
 * most work items start on an idle core, and recording each of them touched the histogram's
 * object and counts array, a cache miss per item once hundreds of cores share a run. Adding n
 * zeros at once leaves the histogram exactly as n single records would (zero moves neither the
 * maximum nor the smallest non-zero value, and never resizes).
 */
public final class LatencyHistogram extends DeclaredStatistic {
    private static final long RESOLUTION_PS = 1_000L;

    private Histogram histogram;
    private long zeros;

    /** A histogram; components declare theirs through the registry. */
    public LatencyHistogram(String name, String description) {
        super(name, "ps", description);
    }

    private Histogram histogram() {
        if (histogram == null) {
            histogram = new Histogram(RESOLUTION_PS, 2 * RESOLUTION_PS, 3);
            histogram.setAutoResize(true);
        }
        return histogram;
    }

    /** Records one latency in picoseconds; negative values are a model bug. */
    public void record(long ps) {
        if (ps == 0) {
            zeros++;
            return;
        }
        if (ps < 0) {
            throw new IllegalArgumentException("negative latency " + ps + " ps in " + name);
        }
        histogram().recordValue(ps);
    }

    /** Adds the zeros counted aside, so that the histogram holds every sample. */
    private void settle() {
        if (zeros > 0) {
            histogram().recordValueWithCount(0, zeros);
            zeros = 0;
        }
    }

    /** Number of recorded latencies. */
    public long count() {
        settle();
        return histogram == null ? 0 : histogram.getTotalCount();
    }

    /** Mean in picoseconds. */
    public double mean() {
        return count() == 0 ? 0 : histogram.getMean();
    }

    /** The value at a percentile (0-100) in picoseconds, within the histogram's precision. */
    public long percentile(double p) {
        return count() == 0 ? 0 : histogram.getValueAtPercentile(p);
    }

    /** Smallest recorded value in picoseconds (within precision). */
    public long min() {
        return count() == 0 ? 0 : histogram.getMinValue();
    }

    /** Largest recorded value in picoseconds (within precision). */
    public long max() {
        return count() == 0 ? 0 : histogram.getMaxValue();
    }

    @Override
    public void reset() {
        zeros = 0;
        if (histogram != null) {
            histogram.reset();
        }
    }

    @Override
    public List<Value> values() {
        return List.of(new Value(name, "count", count(), "count"), new Value(name, "mean", mean(), "ps"),
                new Value(name, "min", min(), "ps"), new Value(name, "p50", percentile(50), "ps"),
                new Value(name, "p99", percentile(99), "ps"), new Value(name, "max", max(), "ps"));
    }
}
