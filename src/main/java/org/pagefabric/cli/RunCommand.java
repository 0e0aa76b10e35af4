package org.pagefabric.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.pagefabric.hw.profile.Profile;
import org.pagefabric.hw.profile.ProfileRegistry;
import org.pagefabric.reg.Policies;
import org.pagefabric.reg.pin.PinEverything;
import org.pagefabric.sim.ParallelRuns;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.Workloads;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code pagefabric run WORKLOAD}: one workload over a range of message sizes, per policy. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run a workload (latency, bandwidth, pingpong) over message sizes under one or more policies.")
final class RunCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "WORKLOAD", description = "One of: latency, bandwidth, pingpong.")
    String workload;

    @Option(names = "--policy", paramLabel = "P", description = "Registration policy (repeatable; default: "
            + PinEverything.NAME + ").")
    List<String> policies = new ArrayList<>();

    @Option(names = "--profile", paramLabel = "R", defaultValue = "default",
            description = "Hardware profile: a bundled name or a YAML file (default: ${DEFAULT-VALUE}).")
    String profile;

    @Option(names = "--sizes", paramLabel = "SIZES", defaultValue = "8..4M",
            description = "Message sizes: a doubling range 8..4M or a list 8,4K,1M (default: ${DEFAULT-VALUE}).")
    String sizes;

    @Option(names = "--iterations", paramLabel = "N", defaultValue = "20",
            description = "Timed iterations per size (default: ${DEFAULT-VALUE}).")
    int iterations;

    @Option(names = "--seed", defaultValue = "1", description = "Master seed (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--threads", paramLabel = "T", description = "Worker threads; results do not depend on it "
            + "(default: the number of processors).")
    Integer threads;

    @Option(names = "--format", defaultValue = "table",
            description = "Output: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    Format format;

    @Option(names = "--out", paramLabel = "DIR", description = "Also write rows.csv, rows.json and the resolved profile here.")
    Path out;

    enum Format { table, csv, json }

    /** {@code --set key=value} options as an ordered map; the error names the bad one. */
    static Map<String, String> parseSets(List<String> sets) {
        Map<String, String> out = new java.util.LinkedHashMap<>();
        for (String s : sets) {
            int eq = s.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("--set " + s + ": write KEY=VALUE, e.g. --set link.loss=0.01");
            }
            out.put(s.substring(0, eq).trim(), s.substring(eq + 1).trim());
        }
        return out;
    }

    @Override
    public Integer call() throws Exception {
        Workload w;
        List<Long> sizeList;
        Profile p;
        try {
            w = Workloads.byName(workload);
            sizeList = SizeList.parse(sizes);
            p = ProfileRegistry.resolve(profile);
            if (policies.isEmpty()) {
                policies.add(PinEverything.NAME);
            }
            for (String name : policies) {
                Policies.create(name, p);
            }
            if (iterations <= 0) {
                throw new IllegalArgumentException("--iterations must be positive, not " + iterations);
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        List<String> pol = List.copyOf(policies);
        int points = pol.size() * sizeList.size();
        int t = threads != null ? threads : Runtime.getRuntime().availableProcessors();
        List<Map<String, Object>> rows;
        try {
            rows = ParallelRuns.run(Math.max(1, Math.min(t, points)), points,
                    i -> PointRun.run(p, pol.get(i / sizeList.size()), w, sizeList.get(i % sizeList.size()), iterations,
                            seed));
        } catch (ParallelRuns.RunFailedException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
        }
        PrintWriter o = spec.commandLine().getOut();
        switch (format) {
            case csv -> o.print(RowFormat.csv(rows));
            case json -> o.print(RowFormat.json(rows));
            case table -> o.print(RowFormat.table(rows, List.of("policy", "size_B", "latency_us", "latency_p50_us",
                    "bandwidth_MBps", "pinned_MiB", "setup_us", "retransmissions", "verified")));
        }
        o.flush();
        if (out != null) {
            try {
                Files.createDirectories(out);
                Files.writeString(out.resolve("rows.csv"), RowFormat.csv(rows));
                Files.writeString(out.resolve("rows.json"), RowFormat.json(rows));
                Files.writeString(out.resolve("profile.yaml"), p.dump());
            } catch (IOException e) {
                throw new IllegalArgumentException("--out " + out + ": cannot write results: " + e.getMessage());
            }
        }
        boolean allVerified = rows.stream().allMatch(r -> Boolean.TRUE.equals(r.get("verified")));
        if (!allVerified) {
            spec.commandLine().getErr().println("pagefabric run: some transfers did not verify (column 'verified')");
            return ExitCodes.FAILURE;
        }
        return ExitCodes.OK;
    }
}
