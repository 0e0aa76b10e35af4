package org.pagefabric.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every policy's rows of one comparison, made into a decision per x: the rows at each x (of
 * every repetition and other grid axis) averaged per policy, the policies whose data did not
 * verify taken out, and the rest ranked by {@link Decision}. Policies that could not run or
 * failed are given by the caller ({@link #exclude}); all of them are listed apart, one line per
 * reason.
 *
 * <pre>{@code
 * PolicyComparison c = new PolicyComparison("size_B", "latency_us", false);
 * c.exclude("openmx-pin", PolicyComparison.CANNOT_RUN, "does not carry one-sided puts");
 * c.addRows(rows);
 * c.table();            // size_B, rank, policy, latency_us, pinned_MiB, verified, pareto
 * c.recommendations();  // x -> "odp-explicit: ties the best latency (...)"
 * c.exclusionLines();   // "cannot run: openmx-pin, openmx-cache: does not carry one-sided puts"
 * }</pre>
 */
public final class PolicyComparison {
    /** The kind of exclusion of a policy the registry says cannot run the workload or profile. */
    public static final String CANNOT_RUN = "cannot run";
    /** The kind of exclusion of a policy whose run threw (a failed connection, a model error). */
    public static final String FAILED = "failed";
    /** The kind of exclusion of a policy whose data did not verify. */
    public static final String CORRUPTED = "data not verified";
    /** The pinned-memory column preferred when a workload reports it: the peak over the run. */
    public static final String PEAK_PINNED = "pinned_peak_MiB";
    /** The pinned-memory column every workload reports. */
    public static final String PINNED = "pinned_MiB";
    /** CPU time spent by the registration path, when a workload reports it. */
    public static final String REGISTRATION_CPU = "registration_cpu_us";
    /** The column of packets on the wire, the protocol's messages included. */
    public static final String PACKETS = "packets";
    /**
     * Where a recorded program's time went, shown beside the ranking when its rows carry them: its
     * run time, its ranks' waits, the MPI runtime's copies and handshakes, messages that came
     * before their receive.
     */
    static final List<String> BREAKDOWN = List.of("runtime_us", "wait_us", "copy_us", "rendezvous_msgs",
            "unexpected_msgs");
    /** The column of bytes an application communicated, for applications that count their traffic so. */
    public static final String BYTES = "bytes_communicated";
    /** The table's column that marks the Pareto-optimal policies. */
    public static final String PARETO = "pareto";

    private final String xColumn;
    private final String candidateColumn;
    private final String metric;
    private final boolean higherIsBetter;
    private final List<Map<String, Object>> rows = new ArrayList<>();
    /** policy -> {kind, reason}, in the order given. */
    private final Map<String, String[]> excluded = new LinkedHashMap<>();

    /**
     * @param xColumn        the row column of the x (a grid axis, e.g. {@code size_B})
     * @param metric         the main metric's column
     * @param higherIsBetter which way the metric is better
     */
    public PolicyComparison(String xColumn, String metric, boolean higherIsBetter) {
        this(xColumn, "policy", metric, higherIsBetter);
    }

    /**
     * A comparison of the values of {@code candidateColumn} ({@code policy}, or {@code scheme}
     * when the schemes are ranked under one policy).
     *
     * @param xColumn         the row column of the x (a grid axis, e.g. {@code size_B})
     * @param candidateColumn the row column that names what is compared
     * @param metric          the main metric's column
     * @param higherIsBetter  which way the metric is better
     */
    public PolicyComparison(String xColumn, String candidateColumn, String metric, boolean higherIsBetter) {
        this.xColumn = xColumn;
        this.candidateColumn = candidateColumn;
        this.metric = metric;
        this.higherIsBetter = higherIsBetter;
    }

    /** The x column. */
    public String xColumn() {
        return xColumn;
    }

    /** The main metric's column. */
    public String metric() {
        return metric;
    }

    /**
     * Lists {@code policy} apart. A reason that starts with the policy's name (as the registry's
     * refusals do) loses it, so that policies refused for the same reason share a line.
     */
    public void exclude(String policy, String kind, String reason) {
        String r = reason.startsWith(policy + " ") ? reason.substring(policy.length() + 1) : reason;
        excluded.putIfAbsent(policy, new String[] {kind, r});
    }

    /** Adds the rows of policies that ran; the rows of a policy whose data did not verify are set apart. */
    public void addRows(List<Map<String, Object>> more) {
        rows.addAll(more);
    }

    /** The policies whose every row verified and that are not excluded, in the order of their rows. */
    private Set<String> ranked() {
        Map<String, Set<Object>> unverified = new LinkedHashMap<>();
        Set<String> policies = new LinkedHashSet<>();
        for (Map<String, Object> r : rows) {
            String p = String.valueOf(r.get(candidateColumn));
            policies.add(p);
            if (!Boolean.TRUE.equals(r.get("verified"))) {
                unverified.computeIfAbsent(p, k -> new LinkedHashSet<>()).add(r.get(xColumn));
            }
        }
        unverified.forEach((p, xs) -> exclude(p, CORRUPTED, "verified=false at " + xColumn + " "
                + String.join(", ", xs.stream().map(String::valueOf).toList())));
        policies.removeAll(excluded.keySet());
        return policies;
    }

    /** One {@link Decision} per x, x in the order the rows first show it. */
    public Map<Object, Decision> decisions() {
        Set<String> ranked = ranked();
        String pinned = rows.stream().anyMatch(r -> r.get(PEAK_PINNED) instanceof Number) ? PEAK_PINNED : PINNED;
        // x -> policy -> sums and counts of metric, pinned, cpu
        Map<Object, Map<String, double[]>> byX = new LinkedHashMap<>();
        for (Map<String, Object> r : rows) {
            String p = String.valueOf(r.get(candidateColumn));
            if (!ranked.contains(p)) {
                continue;
            }
            double[] acc = byX.computeIfAbsent(r.get(xColumn), k -> new LinkedHashMap<>())
                    .computeIfAbsent(p, k -> new double[6]);
            add(acc, 0, r.get(metric));
            add(acc, 2, r.get(pinned));
            add(acc, 4, r.get(REGISTRATION_CPU));
        }
        Map<Object, Decision> out = new LinkedHashMap<>();
        byX.forEach((x, perPolicy) -> {
            List<Decision.Candidate> candidates = new ArrayList<>();
            perPolicy.forEach((p, a) -> candidates.add(new Decision.Candidate(p, mean(a, 0), mean(a, 2), mean(a, 4))));
            out.put(x, Decision.of(metric, higherIsBetter, candidates));
        });
        return out;
    }

    /**
     * The trade-off per x, best first: x, rank, policy, main metric, pinned MiB (the peak where
     * reported), registration CPU time where reported, packets on the wire (the protocol's messages
     * included), verified, and whether the policy is on the
     * Pareto front of metric against pinned memory.
     */
    public List<Map<String, Object>> table() {
        boolean cpu = rows.stream().anyMatch(r -> r.get(REGISTRATION_CPU) instanceof Number);
        String pinned = rows.stream().anyMatch(r -> r.get(PEAK_PINNED) instanceof Number) ? PEAK_PINNED : PINNED;
        // Packets on the wire, the policy's protocol messages included (handshakes, moves, pulls).
        // An application that counts what it communicates in bytes, and sends no packet the NIC
        // counts, is compared by those bytes: a column of zero packets would say nothing moved.
        String traffic = rows.stream().noneMatch(r -> r.get(PACKETS) instanceof Number n && n.longValue() > 0)
                && rows.stream().anyMatch(r -> r.get(BYTES) instanceof Number) ? BYTES : PACKETS;
        Map<Object, Map<String, double[]>> packets = new LinkedHashMap<>();
        for (Map<String, Object> r : rows) {
            if (r.get(traffic) instanceof Number) {
                add(packets.computeIfAbsent(r.get(xColumn), k -> new LinkedHashMap<>())
                        .computeIfAbsent(String.valueOf(r.get(candidateColumn)), k -> new double[2]), 0, r.get(traffic));
            }
        }
        Map<String, Map<Object, Map<String, double[]>>> parts = new LinkedHashMap<>();
        for (String column : BREAKDOWN) {
            if (rows.stream().anyMatch(r -> r.get(column) instanceof Number)) {
                Map<Object, Map<String, double[]>> byX = new LinkedHashMap<>();
                for (Map<String, Object> r : rows) {
                    if (r.get(column) instanceof Number) {
                        add(byX.computeIfAbsent(r.get(xColumn), k -> new LinkedHashMap<>())
                                .computeIfAbsent(String.valueOf(r.get(candidateColumn)), k -> new double[2]), 0,
                                r.get(column));
                    }
                }
                parts.put(column, byX);
            }
        }
        List<Map<String, Object>> out = new ArrayList<>();
        decisions().forEach((x, d) -> {
            for (Decision.Place p : d.ranking()) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put(xColumn, x);
                row.put("rank", p.rank());
                row.put(candidateColumn, p.candidate().policy());
                row.put(metric, round(p.candidate().metric()));
                row.put(pinned, round(p.candidate().pinnedMiB()));
                if (cpu) {
                    row.put(REGISTRATION_CPU, round(p.candidate().cpuUs()));
                }
                double[] sent = packets.getOrDefault(x, Map.of()).get(p.candidate().policy());
                if (sent != null) {
                    // counts stay whole numbers
                    row.put(traffic, Math.round(mean(sent, 0)));
                }
                parts.forEach((column, byX) -> {
                    double[] v = byX.getOrDefault(x, Map.of()).get(p.candidate().policy());
                    if (v != null) {
                        row.put(column, round(mean(v, 0)));
                    }
                });
                row.put("verified", true);
                row.put(PARETO, p.pareto());
                out.add(row);
            }
        });
        return out;
    }

    /** One line per x that has a recommendation: {@code "x: policy: reason"} keyed by x. */
    public Map<Object, String> recommendations() {
        Map<Object, String> out = new LinkedHashMap<>();
        decisions().forEach((x, d) -> {
            String line = d.recommendation();
            if (line != null) {
                out.put(x, line);
            }
        });
        return out;
    }

    /** The policies listed apart, policy -> "kind: reason". */
    public Map<String, String> exclusions() {
        ranked();
        Map<String, String> out = new LinkedHashMap<>();
        excluded.forEach((p, kr) -> out.put(p, kr[0] + ": " + kr[1]));
        return out;
    }

    /** One line per kind and reason, naming the policies it applies to: {@code "kind: p1, p2: reason"}. */
    public List<String> exclusionLines() {
        ranked();
        Map<String, List<String>> byReason = new LinkedHashMap<>();
        excluded.forEach((p, kr) -> byReason.computeIfAbsent(kr[0] + "\u0000" + kr[1], k -> new ArrayList<>()).add(p));
        List<String> out = new ArrayList<>();
        byReason.forEach((key, policies) -> {
            String[] kr = key.split("\u0000", 2);
            out.add(kr[0] + ": " + String.join(", ", policies) + ": " + kr[1]);
        });
        return out;
    }

    private static void add(double[] acc, int at, Object v) {
        if (v instanceof Number n) {
            acc[at] += n.doubleValue();
            acc[at + 1]++;
        }
    }

    private static Double mean(double[] acc, int at) {
        return acc[at + 1] == 0 ? null : acc[at] / acc[at + 1];
    }

    private static Double round(Double v) {
        return v == null ? null : Math.round(v * 1000.0) / 1000.0;
    }
}
