package org.pagefabric.experiment;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run of an experiment produced: one tidy row per finished run, in run order, and what
 * is needed to say how they were made. Rows depend only on the spec, the options' quick flag and
 * {@code --set} values, never on the thread count.
 *
 * @param spec      the effective spec (quick and {@code --set} applied)
 * @param quick     whether {@code --quick} was applied
 * @param overrides the {@code --set} values, in the order given
 * @param planned   how many runs the grid has
 * @param rows      the finished runs' rows, in run order (only those that finished when stopped early)
 * @param complete  whether every planned run finished (false after a stop)
 */
public record ExperimentResult(ExperimentSpec spec, boolean quick, Map<String, String> overrides, int planned,
        List<Map<String, Object>> rows, boolean complete) {
    /** Copies the collections. */
    public ExperimentResult {
        overrides = Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
        rows = List.copyOf(rows);
    }

    /** Whether every finished run's transfers verified end to end (column {@code verified}). */
    public boolean allVerified() {
        return rows.stream().allMatch(r -> Boolean.TRUE.equals(r.get("verified")));
    }
}
