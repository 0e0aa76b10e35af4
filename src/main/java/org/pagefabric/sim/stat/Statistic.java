package org.pagefabric.sim.stat;

import java.util.List;

/**
 * A statistic declared by a component: its hierarchical name, unit and one line of
 * documentation (declared, as in SST, so that reports and {@code info} come from one source).
 */
public sealed interface Statistic permits DeclaredStatistic {
    /** Full name, {@code component.stat}. */
    String name();

    /** Unit of the recorded values, e.g. {@code count}, {@code bytes}, {@code ps}. */
    String unit();

    /** One line saying what is counted. */
    String description();

    /** Forgets everything recorded, e.g. at the end of a warm-up phase. */
    void reset();

    /** The statistic's current values as (field, value, unit) triples, in a fixed order. */
    List<Value> values();

    /**
     * One reported number.
     *
     * @param statistic the statistic's full name
     * @param field     which of its values: {@code count}, {@code mean}, {@code p99} ...
     * @param value     the number
     * @param unit      its unit
     */
    record Value(String statistic, String field, double value, String unit) {
    }
}
