package org.pagefabric.experiment;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks a run's rows against the failures its spec expects ({@link ExpectedFailure}): a row that
 * failed as expected, with the expected reason, is an outcome of the experiment; a row that failed
 * otherwise, or a row expected to fail that verified, is not what the spec says and fails the run.
 *
 * @param expected   rows that failed as the spec expects
 * @param byReason   how many of them per expected reason, in the spec's order
 * @param unexpected rows that failed where the spec expects none, or for another reason, one line each
 * @param missed     rows the spec expects to fail that verified, one line each
 */
public record ExpectedFailures(int expected, Map<String, Integer> byReason, List<String> unexpected,
        List<String> missed) {
    /** Rows named in a line; the rest are counted. */
    private static final int NAMED = 3;

    /** Copies the lists. */
    public ExpectedFailures {
        byReason = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(byReason));
        unexpected = List.copyOf(unexpected);
        missed = List.copyOf(missed);
    }

    /** Whether every row came out as the spec expects. */
    public boolean asExpected() {
        return unexpected.isEmpty() && missed.isEmpty();
    }

    /**
     * Checks {@code rows} of a run of {@code spec} (the effective spec the runner expanded, whose
     * point and repetition numbers the rows carry).
     */
    public static ExpectedFailures check(ExperimentSpec spec, List<Map<String, Object>> rows) {
        Map<String, ExperimentPoint> points = new HashMap<>();
        if (!spec.expectedFailures().isEmpty()) {
            for (ExperimentPoint p : Grid.expand(spec)) {
                points.put(id(p.point(), p.repetition(), p.policy()), p);
            }
        }
        String x = spec.plot() == null ? null : spec.plot().x();
        int expected = 0;
        Map<String, Integer> byReason = new java.util.LinkedHashMap<>();
        spec.expectedFailures().forEach(e -> byReason.putIfAbsent(e.reason(), 0));
        List<String> unexpected = new ArrayList<>();
        List<String> missed = new ArrayList<>();
        for (Map<String, Object> row : rows) {
            ExperimentPoint p = points.get(id(row.get("point"), row.get("repetition"), row.get("policy")));
            ExpectedFailure e = p == null ? null : matching(spec, p);
            boolean failed = VerificationNotice.failed(row);
            Object reason = row.get(VerificationNotice.REASON);
            String name = (p == null ? String.valueOf(row.get("policy")) : p.label().replaceFirst(" rep=0$", ""))
                    + (x == null || p != null ? "" : " at " + x + "=" + row.get(x));
            if (failed && e != null && reason != null && String.valueOf(reason).contains(e.reason())) {
                expected++;
                byReason.merge(e.reason(), 1, Integer::sum);
            } else if (failed) {
                unexpected.add(name + ": " + reason + (e == null ? "" : " (the spec expects " + e.reason() + ")"));
            } else if (e != null) {
                missed.add(name + " verified; the spec expects it to fail with " + e.reason() + ": " + e.why());
            }
        }
        byReason.values().removeIf(n -> n == 0);
        return new ExpectedFailures(expected, byReason, unexpected, missed);
    }

    /**
     * {@code 10 of 32 rows failed as the spec expects (RLIMIT_MEMLOCK: 4, vm.max_map_count: 6)},
     * followed, when some rows did not come out as expected, by the first of them; {@code null}
     * when no row failed and none was expected to.
     *
     * @param rows how many rows the run has
     */
    public String line(int rows) {
        if (expected == 0 && asExpected()) {
            return null;
        }
        StringBuilder b = new StringBuilder();
        if (!asExpected()) {
            List<String> named = new ArrayList<>(unexpected);
            named.addAll(missed);
            b.append("NOT AS EXPECTED: ").append(unexpected.size()).append(" rows failed unexpectedly, ")
                    .append(missed.size()).append(" expected to fail verified (")
                    .append(String.join("; ", named.subList(0, Math.min(NAMED, named.size()))))
                    .append(named.size() > NAMED ? "; " + (named.size() - NAMED) + " more" : "").append(")");
        }
        if (expected > 0) {
            StringBuilder reasons = new StringBuilder();
            byReason.forEach((r, n) -> reasons.append(reasons.isEmpty() ? "" : ", ").append(r).append(": ").append(n));
            b.append(b.isEmpty() ? "" : "; ").append(expected).append(" of ").append(rows)
                    .append(" rows failed as the spec expects (").append(reasons).append(")");
        }
        return b.toString();
    }

    /** The first expected failure whose grid values and policy are those of {@code p}, or {@code null}. */
    private static ExpectedFailure matching(ExperimentSpec spec, ExperimentPoint p) {
        for (ExpectedFailure e : spec.expectedFailures()) {
            boolean all = true;
            for (Map.Entry<String, List<Object>> w : e.when().entrySet()) {
                Object v = w.getKey().equals("policy") ? p.policy()
                        : p.profileValues().containsKey(w.getKey()) ? p.profileValues().get(w.getKey())
                        : p.workloadValues().get(w.getKey());
                if (w.getValue().stream().noneMatch(want -> ReferenceComparison.same(v, want))) {
                    all = false;
                    break;
                }
            }
            if (all) {
                return e;
            }
        }
        return null;
    }

    private static String id(Object point, Object repetition, Object policy) {
        return point + "/" + repetition + "/" + policy;
    }
}
