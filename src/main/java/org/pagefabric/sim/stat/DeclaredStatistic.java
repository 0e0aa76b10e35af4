package org.pagefabric.sim.stat;

/** What every statistic declares: its full name, unit and one line saying what it counts. */
abstract sealed class DeclaredStatistic implements Statistic
        permits Counter, Accumulator, LatencyHistogram, TimeWeightedAverage {
    final String name, unit, description;

    DeclaredStatistic(String name, String unit, String description) {
        this.name = name;
        this.unit = unit;
        this.description = description;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final String unit() {
        return unit;
    }

    @Override
    public final String description() {
        return description;
    }
}
