package org.pagefabric.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.pagefabric.hw.profile.Profile;
import org.pagefabric.hw.profile.ProfileRegistry;
import org.pagefabric.reg.Policies;
import org.pagefabric.sim.ParallelRuns;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.Workloads;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code pagefabric compare WORKLOAD}: every registration policy on the same workload and
 * hardware profile, ranked at each message size by the workload's main metric, with pinned
 * memory and retransmissions beside it (the Caffeine-simulator view: one trace, every policy).
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Every policy on one workload and profile, ranked by the workload's main metric.")
final class CompareCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "WORKLOAD", description = "A workload (see pagefabric info workloads).")
    String workload;

    @Option(names = "--profile", paramLabel = "R", defaultValue = "default",
            description = "Hardware profile (default: ${DEFAULT-VALUE}).")
    String profile;

    @Option(names = "--sizes", defaultValue = "64,64K,1M", description = "Message sizes (default: ${DEFAULT-VALUE}).")
    String sizes;

    @Option(names = "--iterations", defaultValue = "10", description = "Timed iterations (default: ${DEFAULT-VALUE}).")
    int iterations;

    @Option(names = "--seed", defaultValue = "1", description = "Master seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--format", defaultValue = "table",
            description = "Output: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    RunCommand.Format format;

    @Override
    public Integer call() throws Exception {
        Workload w;
        List<Long> sizeList;
        Profile p;
        try {
            w = Workloads.byName(workload);
            sizeList = SizeList.parse(sizes);
            p = ProfileRegistry.resolve(profile);
            if (iterations <= 0) {
                throw new IllegalArgumentException("--iterations must be positive, not " + iterations);
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        List<String> policies = Policies.names();
        int points = policies.size() * sizeList.size();
        List<Map<String, Object>> rows;
        try {
            rows = ParallelRuns.run(Math.min(points, Runtime.getRuntime().availableProcessors()), points,
                    i -> {
                        try {
                            return PointRun.run(p, policies.get(i % policies.size()), w,
                                    sizeList.get(i / policies.size()), iterations, seed);
                        } catch (org.pagefabric.reg.PolicyRefusal refusal) {
                            // A policy the profile's hardware cannot serve (e.g. PART without an IOMMU) is left out.
                            Map<String, Object> skipped = new LinkedHashMap<>();
                            skipped.put("policy", policies.get(i % policies.size()));
                            skipped.put("refusal", refusal.getMessage());
                            return skipped;
                        }
                    });
        } catch (ParallelRuns.RunFailedException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
        }
        java.util.Set<String> refused = new java.util.LinkedHashSet<>();
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
        PrintWriter out = spec.commandLine().getOut();
        switch (format) {
            case csv -> out.print(RowFormat.csv(ranked));
            case json -> out.print(RowFormat.json(ranked));
            case table -> out.print(RowFormat.table(ranked, List.of("size_B", "rank", "policy", w.mainMetric(),
                    "pinned_MiB", "retransmissions", "verified")));
        }
        out.flush();
        return ExitCodes.OK;
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
}
