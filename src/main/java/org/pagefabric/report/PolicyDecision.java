package org.pagefabric.report;

import java.util.List;
import java.util.Map;

/**
 * What a comparison of policies decided, for its report: the trade-off table per x (best first,
 * ranks, Pareto marks), one recommendation per x, and the policies listed apart with their
 * reasons.
 *
 * @param xColumn         the column each ranking is made at, e.g. {@code size_B}
 * @param metric          the main metric's column, e.g. {@code latency_us}
 * @param pinnedColumn    the pinned-memory column of the table, e.g. {@code pinned_MiB}
 * @param ranking         the table's rows: x, rank, policy, metric, pinned memory, ..., pareto
 * @param recommendations x -> "policy: reason"
 * @param apart           one line per reason a policy is not ranked
 */
public record PolicyDecision(String xColumn, String metric, String pinnedColumn, List<Map<String, Object>> ranking,
                             Map<Object, String> recommendations, List<String> apart) {
    /** Copies the collections, so the record is immutable. */
    public PolicyDecision {
        ranking = List.copyOf(ranking);
        recommendations = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(recommendations));
        apart = List.copyOf(apart);
    }
}
