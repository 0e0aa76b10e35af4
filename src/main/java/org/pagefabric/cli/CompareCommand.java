package org.pagefabric.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.experiment.ExperimentPoint;
import org.pagefabric.experiment.ExperimentResult;
import org.pagefabric.experiment.ExperimentRunner;
import org.pagefabric.experiment.ExperimentSpec;
import org.pagefabric.experiment.Grid;
import org.pagefabric.experiment.ReferenceComparison;
import org.pagefabric.experiment.SpecReader;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.sim.ParallelRuns;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.StandardParameters;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadRegistry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code pagefabric compare}: every registration policy on the same work (the Caffeine-simulator
 * view: one trace, every policy). Two forms:
 *
 * <ul>
 *   <li>{@code compare WORKLOAD}: the workload over message sizes on one profile, ranked at each
 *       size by the workload's main metric, with pinned memory and retransmissions beside it;
 *   <li>{@code compare EXPERIMENT [--quick]}: a bundled experiment (or spec file) with its
 *       workload, profile and grid under every registered policy, written as {@code reproduce}
 *       writes (rows, plot, report) to {@code OUT/compare-ID/}, and ranked at each x of its plot
 *       by the plot's metric. A policy that refuses the workload ({@link PolicyRefusal}) is
 *       listed as "n/a" with its reason.
 * </ul>
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Every policy on one workload, or on one experiment's grid, ranked by the main metric.")
final class CompareCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "WORKLOAD|EXPERIMENT",
            description = "A workload (pagefabric info workloads), an experiment id (pagefabric info experiments) or a spec file.")
    String target;

    @Option(names = "--profile", paramLabel = "R", defaultValue = "default",
            description = "Hardware profile of a WORKLOAD comparison (default: ${DEFAULT-VALUE}).")
    String profile;

    @Option(names = "--sizes", defaultValue = "64,64K,1M",
            description = "Message sizes of a WORKLOAD comparison (default: ${DEFAULT-VALUE}).")
    String sizes;

    @Option(names = "--iterations", defaultValue = "10",
            description = "Timed iterations of a WORKLOAD comparison (default: ${DEFAULT-VALUE}).")
    int iterations;

    @Option(names = "--seed", defaultValue = "1", description = "Master seed of a WORKLOAD comparison (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--quick", description = "EXPERIMENT: the spec's smaller quick grid and repetitions.")
    boolean quick;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "EXPERIMENT: override a grid key, seed or repetitions (repeatable).")
    List<String> sets = new ArrayList<>();

    @Option(names = "--threads", paramLabel = "T", description = "EXPERIMENT: worker threads; results do not depend on it.")
    Integer threads;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results",
            description = "EXPERIMENT: results go to DIR/compare-ID (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--format", defaultValue = "table",
            description = "Output: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    RunCommand.Format format;

    @Override
    public Integer call() throws Exception {
        boolean experiment = SpecReader.bundledIds().contains(target) || target.endsWith(".yaml")
                || target.endsWith(".yml");
        if (experiment) {
            return compareExperiment();
        }
        Workload w;
        List<Long> sizeList;
        Profile p;
        try {
            w = WorkloadRegistry.standard().byName(target);
            sizeList = SizeList.parse(sizes);
            p = ProfileRegistry.resolve(profile);
            if (iterations <= 0) {
                throw new IllegalArgumentException("--iterations must be positive, not " + iterations);
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage()
                    + "; or an experiment id: " + String.join(", ", SpecReader.bundledIds()));
        }
        List<String> policies = new ArrayList<>();
        java.util.Set<String> refused = new java.util.LinkedHashSet<>();
        for (String name : PolicyRegistry.standard().names()) {
            String cannot = null;
            for (long size : sizeList) {
                Map<String, Object> values = w.resolve(Map.of(StandardParameters.SIZE, size,
                        StandardParameters.ITERATIONS, iterations));
                cannot = cannot != null ? cannot : PolicyRegistry.standard().descriptor(name).refusal(w.requires(values), p);
            }
            if (cannot == null) {
                policies.add(name);
            } else {
                refused.add(name + " (" + cannot + ")");
            }
        }
        int points = policies.size() * sizeList.size();
        List<Map<String, Object>> rows;
        try {
            rows = ParallelRuns.run(Math.min(points, Runtime.getRuntime().availableProcessors()), points,
                    i -> pointOrRefusal(policies.get(i % policies.size()), () -> PointRun.run(p,
                            policies.get(i % policies.size()), w, sizeList.get(i / policies.size()), iterations, seed)));
        } catch (ParallelRuns.RunFailedException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
        }
        rows = rows.stream().filter(r -> {
            if (r.containsKey("refusal")) {
                refused.add(r.get("policy") + " (" + r.get("refusal") + ")");
                return false;
            }
            return true;
        }).toList();
        if (!refused.isEmpty()) {
            spec.commandLine().getErr().println("compare: left out, the policy cannot run here: "
                    + String.join("; ", refused));
            spec.commandLine().getErr().flush();
        }
        List<Map<String, Object>> ranked = rank(rows, w);
        PrintWriter o = spec.commandLine().getOut();
        switch (format) {
            case csv -> o.print(RowFormat.csv(ranked));
            case json -> o.print(RowFormat.json(ranked));
            case table -> o.print(RowFormat.table(ranked, List.of("size_B", "rank", "policy", w.mainMetric(),
                    "pinned_MiB", "retransmissions", "verified")));
            case markdown -> o.print(RowFormat.markdown(ranked, List.of("size_B", "rank", "policy", w.mainMetric(),
                    "pinned_MiB", "retransmissions", "verified")));
        }
        o.flush();
        return ExitCodes.OK;
    }

    /** Runs an experiment's grid under every policy, one runner per policy so a refusal stays local. */
    private int compareExperiment() throws IOException {
        ExperimentSpec base;
        Map<String, String> overrides;
        try {
            base = target.endsWith(".yaml") || target.endsWith(".yml") ? SpecReader.read(Path.of(target))
                    : SpecReader.bundled(target);
            if (!base.runnable()) {
                throw new IllegalArgumentException(base.id() + ": not reproducible yet: " + String.join("; ",
                        base.requires()));
            }
            overrides = RunCommand.parseSets(sets);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        int t = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        String id = "compare-" + base.id();
        List<Map<String, Object>> rows = new ArrayList<>();
        List<String> ran = new ArrayList<>();
        Map<String, String> refused = new LinkedHashMap<>();
        ExperimentSpec effective = null;
        ExperimentSpec asRun;
        try {
            asRun = Grid.effective(base, quick, overrides);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        for (String policy : PolicyRegistry.standard().names()) {
            if (!Grid.runsUnder(asRun, policy)) {
                refused.put(policy, "gives none of the experiment's schemes the registration it needs");
                continue;
            }
            ExperimentRunner runner;
            try {
                runner = new ExperimentRunner(base.withPolicies(id, List.of(policy)),
                        new ExperimentRunner.Options(t, quick, true, overrides));
            } catch (IllegalArgumentException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
            }
            String cannot = refusalBeforeRunning(runner, base);
            if (cannot != null) {
                refused.put(policy, cannot);
                continue;
            }
            try {
                ExperimentResult r = runner.run();
                rows.addAll(r.rows());
                ran.add(policy);
                effective = r.spec();
            } catch (ExperimentRunner.PointFailedException e) {
                PolicyRefusal refusal = refusal(e);
                if (refusal == null) {
                    throw e;
                }
                refused.put(policy, refusal.getMessage());
            }
        }
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (effective == null) {
            refused.forEach((p, why) -> err.println(p + ": n/a: " + why));
            err.println("compare: no policy can run " + base.id());
            err.flush();
            return ExitCodes.USAGE;
        }
        ExperimentSpec all = effective.withPolicies(id, ran);
        ExperimentResult result = new ExperimentResult(all, quick, overrides, rows.size(), rows, true);
        List<Map<String, Object>> comparison = all.reference().isEmpty() ? List.of()
                : ReferenceComparison.compare(base, result, all);
        ExperimentOutput.write(out, result, comparison);
        List<Map<String, Object>> ranked = rankExperiment(all, rows);
        switch (format) {
            case csv -> o.print(RowFormat.csv(ranked));
            case json -> o.print(RowFormat.json(ranked));
            case table -> o.print(RowFormat.leftTable(ranked, List.of("x", "rank", "policy", "metric", "value",
                    "pinned_MiB", "verified")));
            case markdown -> o.print(RowFormat.markdown(ranked, List.of("x", "rank", "policy", "metric", "value",
                    "pinned_MiB", "verified")));
        }
        o.flush();
        refused.forEach((p, why) -> err.println(p + ": n/a: " + why));
        err.println("compare: " + ran.size() + " policies ran, " + refused.size() + " n/a; report in "
                + out.resolve(id).resolve("report.html"));
        if (!result.allVerified()) {
            err.println("compare: some transfers did not verify (column 'verified')");
        }
        err.flush();
        return result.allVerified() ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    /**
     * Why the registry says the runner's policy cannot run one of its points (a capability the
     * workload needs and the policy lacks, hardware the profile does not have), or {@code null}.
     */
    private static String refusalBeforeRunning(ExperimentRunner runner, ExperimentSpec base) {
        for (ExperimentPoint point : runner.points()) {
            String why = PolicyRegistry.standard().descriptor(point.policy()).refusal(
                    base.workload().requires(base.workload().resolve(point.workloadValues())), point.profile());
            if (why != null) {
                return why;
            }
        }
        return null;
    }

    /** The policy's refusal among the causes of a failed point (a rank's process wraps it), or {@code null}. */
    private static PolicyRefusal refusal(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof PolicyRefusal r) {
                return r;
            }
        }
        return null;
    }

    /**
     * One row per (x, policy): the mean of the plot's metric over the rows at that x (repetitions
     * and other grid axes), ranked best first at each x, x in the order the rows first show it.
     */
    static List<Map<String, Object>> rankExperiment(ExperimentSpec s, List<Map<String, Object>> rows) {
        String xCol = s.plot() != null ? s.plot().x() : s.parameterColumns().get(7);
        String metric = s.plot() != null ? s.plot().y() : s.metrics().get(0);
        // The workload says which way its main metric is better; of the others only rates are.
        boolean higherIsBetter = metric.equals(s.workload().mainMetric()) ? s.workload().higherIsBetter()
                : metric.contains("bandwidth") || metric.contains("hit_rate");
        Map<String, Map<String, double[]>> byX = new LinkedHashMap<>();
        Map<String, Map<String, Boolean>> verified = new LinkedHashMap<>();
        Map<String, Object> xValue = new LinkedHashMap<>();
        for (Map<String, Object> r : rows) {
            String x = String.valueOf(r.get(xCol));
            xValue.putIfAbsent(x, r.get(xCol));
            // a run with a scheme is told apart by scheme and policy: rma and am both run under pin-all
            String policy = (r.get(StandardParameters.SCHEME) == null ? "" : r.get(StandardParameters.SCHEME)
                    + ExperimentSpec.Plot.SERIES_JOIN) + r.get("policy");
            double[] acc = byX.computeIfAbsent(x, k -> new LinkedHashMap<>()).computeIfAbsent(policy, k -> new double[4]);
            if (r.get(metric) instanceof Number v) {
                acc[0] += v.doubleValue();
                acc[1]++;
            }
            if (r.get("pinned_MiB") instanceof Number pin) {
                acc[2] += pin.doubleValue();
                acc[3]++;
            }
            verified.computeIfAbsent(x, k -> new LinkedHashMap<>()).merge(policy,
                    Boolean.TRUE.equals(r.get("verified")), Boolean::logicalAnd);
        }
        List<Map<String, Object>> out = new ArrayList<>();
        for (var e : byX.entrySet()) {
            List<Map.Entry<String, double[]>> entries = new ArrayList<>(e.getValue().entrySet());
            Comparator<Map.Entry<String, double[]>> order = Comparator.comparingDouble(
                    en -> en.getValue()[1] == 0 ? Double.NaN : en.getValue()[0] / en.getValue()[1]);
            if (higherIsBetter) {
                order = order.reversed();
            }
            // Policies without a value go last, then by name, so the order never depends on the map.
            order = Comparator.<Map.Entry<String, double[]>, Boolean>comparing(en -> en.getValue()[1] == 0)
                    .thenComparing(order).thenComparing(Map.Entry::getKey);
            entries.sort(order);
            int rank = 0;
            for (var en : entries) {
                double[] a = en.getValue();
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("x", xValue.get(e.getKey()));
                row.put("rank", ++rank);
                row.put("policy", en.getKey());
                row.put("metric", metric);
                row.put("value", a[1] == 0 ? null : Math.round(a[0] / a[1] * 1000.0) / 1000.0);
                row.put("pinned_MiB", a[3] == 0 ? null : Math.round(a[2] / a[3] * 1000.0) / 1000.0);
                row.put("verified", verified.get(e.getKey()).get(en.getKey()));
                out.add(row);
            }
        }
        return out;
    }

    /** Orders rows by size, then by the main metric (best first), and numbers the ranks per size. */
    static List<Map<String, Object>> rank(List<Map<String, Object>> rows, Workload w) {
        Comparator<Map<String, Object>> byMetric = Comparator.comparingDouble(r -> ((Number) r.get(w.mainMetric())).doubleValue());
        if (w.higherIsBetter()) {
            byMetric = byMetric.reversed();
        }
        Comparator<Map<String, Object>> order = Comparator.<Map<String, Object>>comparingLong(
                r -> ((Number) r.get("size_B")).longValue()).thenComparing(byMetric)
                .thenComparing(r -> String.valueOf(r.get("policy")));
        List<Map<String, Object>> sorted = new ArrayList<>(rows);
        sorted.sort(order);
        List<Map<String, Object>> out = new ArrayList<>();
        long size = -1;
        int rank = 0;
        for (Map<String, Object> r : sorted) {
            long s = ((Number) r.get("size_B")).longValue();
            rank = s == size ? rank + 1 : 1;
            size = s;
            Map<String, Object> withRank = new LinkedHashMap<>();
            withRank.put("size_B", s);
            withRank.put("rank", rank);
            withRank.putAll(r);
            out.add(withRank);
        }
        return out;
    }

    /**
     * The point's row, or, when its policy refuses the workload's operations (Open-MX has no
     * one-sided puts) or the profile's hardware (PART without an IOMMU), a row holding only the
     * policy and the refusal, which the caller leaves out and names.
     */
    private static Map<String, Object> pointOrRefusal(String policy, java.util.function.Supplier<Map<String, Object>> point) {
        try {
            return point.get();
        } catch (RuntimeException e) {
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof org.pagefabric.reg.PolicyRefusal refusal) {
                    Map<String, Object> skipped = new LinkedHashMap<>();
                    skipped.put("policy", policy);
                    skipped.put("refusal", refusal.getMessage());
                    return skipped;
                }
            }
            throw e;
        }
    }
}
