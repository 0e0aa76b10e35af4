package org.pagefabric.sim.stat;

import java.util.List;

/** A monotone count of occurrences: faults, retransmissions, refused accesses. */
public final class Counter implements Statistic {
    private final String name;
    private final String unit;
    private final String description;
    private long count;

    /** A counter; components declare theirs through the registry. */
    public Counter(String name, String unit, String description) {
        this.name = name;
        this.unit = unit;
        this.description = description;
    }

    /** Adds one. */
    public void increment() {
        count++;
    }

    /** Adds {@code n}, which must not be negative. */
    public void add(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("counter " + name + " cannot go down by " + n);
        }
        count += n;
    }

    /** The count. */
    public long value() {
        return count;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String unit() {
        return unit;
    }

    @Override
    public String description() {
        return description;
    }

    @Override
    public void reset() {
        count = 0;
    }

    @Override
    public List<Value> values() {
        return List.of(new Value(name, "count", count, unit));
    }
}
