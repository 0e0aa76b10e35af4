package org.pagefabric.sim.stat;

import java.util.List;

/** A monotone count of occurrences: faults, retransmissions, refused accesses. */
public final class Counter extends DeclaredStatistic {
    private long count;

    /** A counter; components declare theirs through the registry. */
    public Counter(String name, String unit, String description) {
        super(name, unit, description);
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
    public void reset() {
        count = 0;
    }

    @Override
    public List<Value> values() {
        return List.of(new Value(name, "count", count, unit));
    }
}
