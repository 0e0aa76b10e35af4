package org.pagefabric.workload;

import java.util.List;
import java.util.Objects;

/**
 * A parameter whose value a point leaves to a search ({@code dht-insert}'s {@code onload_cores:
 * best}, 002 §5.2.1: "the C that delivers maximum performance"): the experiment layer runs the
 * point once per candidate, keeps the best by {@code metric} (the earlier candidate among
 * equals), and reports that run's row with the parameter as given and the chosen value in
 * {@code chosenColumn}. The workload itself only ever runs one value.
 *
 * @param parameter      the parameter searched
 * @param candidates     its values to try, in order of preference among equals
 * @param metric         the metric column that decides
 * @param higherIsBetter whether a larger metric wins
 * @param chosenColumn   the metric column that reports the chosen value
 */
public record SearchedParameter(String parameter, List<Object> candidates, String metric, boolean higherIsBetter,
                                String chosenColumn) {
    /** Checks the fields and copies the candidates. */
    public SearchedParameter {
        Objects.requireNonNull(parameter, "parameter");
        Objects.requireNonNull(metric, "metric");
        Objects.requireNonNull(chosenColumn, "chosenColumn");
        if (candidates.isEmpty()) {
            throw new IllegalArgumentException("a search over " + parameter + " needs at least one candidate");
        }
        candidates = List.copyOf(candidates);
    }
}
