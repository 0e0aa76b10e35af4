package org.pagefabric.sim.stat;

import java.util.List;
import java.util.function.LongSupplier;

/**
 * The average of a level over virtual time (pinned bytes, queue depth, busy cores): each value
 * weighs by how long it was held, which a plain mean of samples gets wrong.
 */
public final class TimeWeightedAverage extends DeclaredStatistic {
    private final LongSupplier clock;
    private long start;
    private long lastChange;
    private long level;
    private long max;
    /** Integral of the level over time, in unit × ps; double because it can exceed 2^63. */
    private double area;

    /** A level starting at 0 now; components declare theirs through the registry. */
    public TimeWeightedAverage(String name, String unit, String description, LongSupplier clock) {
        super(name, unit, description);
        this.clock = clock;
        this.start = clock.getAsLong();
        this.lastChange = start;
    }

    /** Sets the level from now on. */
    public void set(long value) {
        long t = clock.getAsLong();
        area += (double) level * (t - lastChange);
        lastChange = t;
        level = value;
        if (value > max) {
            max = value;
        }
    }

    /** Changes the level by {@code delta} from now on. */
    public void add(long delta) {
        set(level + delta);
    }

    /** The level now. */
    public long level() {
        return level;
    }

    /** The highest level held. */
    public long max() {
        return max;
    }

    /** The time-weighted average from the start (or last reset) until now. */
    public double average() {
        long t = clock.getAsLong();
        long span = t - start;
        if (span == 0) {
            return level;
        }
        return (area + (double) level * (t - lastChange)) / span;
    }

    /** Restarts the average now, keeping the current level. */
    @Override
    public void reset() {
        start = clock.getAsLong();
        lastChange = start;
        area = 0;
        max = level;
    }

    @Override
    public List<Value> values() {
        return List.of(new Value(name, "average", average(), unit), new Value(name, "max", max, unit),
                new Value(name, "level", level, unit));
    }
}
