package org.pagefabric.sim.stat;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;
import java.util.function.LongSupplier;

/**
 * Every statistic of one simulation, by full name. Reports iterate in name order so that two
 * runs of the same model print the same lines, whatever order components were built in.
 */
public final class StatisticsRegistry {
    private final TreeMap<String, Statistic> byName = new TreeMap<>();
    private final LongSupplier clock;

    /** A registry whose time-weighted statistics read {@code clock} (picoseconds). */
    public StatisticsRegistry(LongSupplier clock) {
        this.clock = clock;
    }

    /** Declares (or returns the already declared) counter. */
    public Counter counter(String name, String unit, String description) {
        return declare(name, Counter.class, () -> new Counter(name, unit, description));
    }

    /** Declares (or returns the already declared) accumulator. */
    public Accumulator accumulator(String name, String unit, String description) {
        return declare(name, Accumulator.class, () -> new Accumulator(name, unit, description));
    }

    /** Declares (or returns the already declared) latency histogram. */
    public LatencyHistogram latency(String name, String description) {
        return declare(name, LatencyHistogram.class, () -> new LatencyHistogram(name, description));
    }

    /** Declares (or returns the already declared) time-weighted level. */
    public TimeWeightedAverage level(String name, String unit, String description) {
        return declare(name, TimeWeightedAverage.class, () -> new TimeWeightedAverage(name, unit, description, clock));
    }

    private <T extends Statistic> T declare(String name, Class<T> kind, java.util.function.Supplier<T> create) {
        Statistic s = byName.get(name);
        if (s == null) {
            T created = create.get();
            byName.put(name, created);
            return created;
        }
        if (!kind.isInstance(s)) {
            throw new IllegalArgumentException("statistic '" + name + "' is already declared as a "
                    + s.getClass().getSimpleName() + ", not a " + kind.getSimpleName());
        }
        return kind.cast(s);
    }

    /** The statistic with that full name, or {@code null}. */
    public Statistic get(String name) {
        return byName.get(name);
    }

    /** All statistics in name order. */
    public Collection<Statistic> all() {
        return Collections.unmodifiableCollection(byName.values());
    }

    /** Resets every statistic, e.g. after warm-up. */
    public void resetAll() {
        byName.values().forEach(Statistic::reset);
    }

    /** Every value of every statistic, in name order. */
    public List<Statistic.Value> snapshot() {
        List<Statistic.Value> out = new ArrayList<>();
        for (Statistic s : byName.values()) {
            out.addAll(s.values());
        }
        return out;
    }
}
