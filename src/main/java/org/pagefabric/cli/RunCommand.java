package org.pagefabric.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.pagefabric.comm.Job;
import org.pagefabric.experiment.ExperimentResult;
import org.pagefabric.experiment.VerificationNotice;
import org.pagefabric.experiment.ExperimentRunner;
import org.pagefabric.experiment.ExperimentSpec;
import org.pagefabric.experiment.SpecReader;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.report.IndexPage;
import org.pagefabric.workload.StandardParameters;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadRegistry;
import org.pagefabric.report.timeline.TimelineRecorder;
import org.pagefabric.workload.trace.TraceRecorder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/** {@code pagefabric run WORKLOAD}: one workload over a range of message sizes, per policy (and scheme). */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run a workload over message sizes under one or more policies.")
final class RunCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "WORKLOAD", description = "A workload: pagefabric info workloads lists them.")
    String workload;

    @Option(names = "--policy", paramLabel = "P", description = "Registration policy (repeatable; default: "
            + PolicyRegistry.DEFAULT + ").")
    List<String> policies = new ArrayList<>();

    @Option(names = "--scheme", paramLabel = "S", description = "Application scheme of a workload that has schemes"
            + " (repeatable; pagefabric info schemes); each runs under the given policies that give it the"
            + " registration it needs.")
    List<String> schemes = new ArrayList<>();

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

    @Option(names = "--threads", paramLabel = "T", description = "Worker threads, 1 to the larger of 1024 and 64"
            + " per processor; results do not depend on it (default: the number of processors).")
    Integer threads;

    @CommandLine.Mixin
    FormatOption output;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Also write rows, manifest, resolved spec, plot and HTML report under DIR/run.WORKLOAD;"
                    + " the report shows the timeline of the first point, written beside it as timeline.json.")
    Path out;

    @Option(names = "--record-trace", paramLabel = "FILE",
            description = "Write the trace of what the run did to FILE, for the trace workload to replay"
                    + " (docs/TRACES.md); needs one policy and one size.")
    Path recordTrace;

    @Option(names = "--timeline", paramLabel = "FILE",
            description = "Write a timeline of the run to FILE as Chrome trace-event JSON (open it in Perfetto or"
                    + " chrome://tracing): per rank, NIC and kernel, and the pinned memory; needs one policy and one"
                    + " size (docs/TRACES.md).")
    Path timeline;

    @Option(names = "--timeline-events", paramLabel = "N", defaultValue = "" + TimelineRecorder.DEFAULT_CAPACITY,
            description = "The most events --timeline keeps; it says so when the run had more (default: ${DEFAULT-VALUE}).")
    int timelineEvents;

    enum Format { table, csv, json, markdown }

    /** Writes the timeline whole (to a temporary file, then renamed); the exit code of a failure, or null. */
    private Integer writeTimeline(TimelineRecorder r) {
        PrintWriter err = spec.commandLine().getErr();
        if (!r.attached()) {
            err.println("pagefabric run: --timeline: workload '" + workload + "' builds no job of ranks; nothing to show");
            return ExitCodes.USAGE;
        }
        Path dir = timeline.toAbsolutePath().getParent();
        try {
            Path tmp = java.nio.file.Files.createTempFile(dir, "." + timeline.getFileName(), ".tmp");
            try (java.io.Writer w = java.nio.file.Files.newBufferedWriter(tmp)) {
                r.write(w, commandLine());
            }
            java.nio.file.Files.move(tmp, timeline, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            err.println("pagefabric run: --timeline " + timeline + ": cannot write: " + e.getMessage());
            return ExitCodes.USAGE;
        }
        if (r.dropped() > 0) {
            err.println("pagefabric run: --timeline " + timeline + ": kept the first " + r.capacity() + " events of "
                    + (r.capacity() + r.dropped()) + " (--timeline-events raises the cap)");
        }
        err.flush();
        return null;
    }

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

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "Override a profile parameter or workload parameter, e.g. --set link.loss=0.01 (repeatable).")
    List<String> sets = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        ExperimentSpec experiment;
        ExperimentRunner runner;
        try {
            Workload w = WorkloadRegistry.standard().byName(workload);
            List<Long> sizeList = SizeList.parse(sizes);
            if (iterations <= 0) {
                throw new IllegalArgumentException("--iterations must be positive, not " + iterations);
            }
            if (policies.isEmpty()) {
                policies.add(PolicyRegistry.DEFAULT);
            }
            if (!schemes.isEmpty() && w.parameter(StandardParameters.SCHEME) == null) {
                throw new IllegalArgumentException("--scheme: workload '" + w.name() + "' runs no scheme; those that"
                        + " do: " + String.join(", ", WorkloadRegistry.standard().names().stream()
                        .filter(n -> WorkloadRegistry.standard().byName(n).parameter(StandardParameters.SCHEME) != null).toList()));
            }
            experiment = SpecReader.parse("(command line)", specText(w, sizeList), Path.of("").toAbsolutePath());
            if (recordTrace != null && (policies.size() != 1 || schemes.size() > 1
                    || (w.parameter("size_B") != null && sizeList.size() != 1))) {
                throw new IllegalArgumentException("--record-trace records one run: give one --policy, at most one"
                        + " --scheme and one size (--sizes 4K)");
            }
            if (timeline != null && (policies.size() != 1 || schemes.size() > 1
                    || (w.parameter("size_B") != null && sizeList.size() != 1))) {
                throw new IllegalArgumentException("--timeline shows one run: give one --policy, at most one"
                        + " --scheme and one size (--sizes 4K)");
            }
            if (timeline != null && recordTrace != null) {
                throw new IllegalArgumentException("--timeline and --record-trace each watch the run; give one of them");
            }
            if (timeline != null && timelineEvents < 1) {
                throw new IllegalArgumentException("--timeline-events: " + timelineEvents + " is not a positive number");
            }
            // a recording watches the one job the run builds, in whichever thread builds it
            int t = recordTrace != null || timeline != null ? 1 : WorkerThreads.count(threads);
            runner = new ExperimentRunner(experiment, new ExperimentRunner.Options(t, false, true, parseSets(sets)));
            // the output last: a check creates the directories, and a refused command leaves none
            OutputPaths.directory("--out", out);
            OutputPaths.file("--record-trace", recordTrace);
            if (timeline != null) {
                OutputPaths.file("--timeline", timeline);
            }
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        // the report's timeline first, in a run of its own, before anything watches the rows' run
        PointTimeline pointTimeline = out == null ? null : PointTimeline.record(
                new ExperimentRunner(experiment, new ExperimentRunner.Options(1, false, false, parseSets(sets))),
                0, "The run's first point: " + runner.points().getFirst().label() + ".",
                "pagefabric run " + workload + ": " + runner.points().getFirst().label());
        List<ExperimentResult> done = new ArrayList<>();
        TraceRecorder recorder = recordTrace == null ? null : new TraceRecorder(commandLine());
        if (recorder != null) {
            Job.watch(recorder);
        }
        TimelineRecorder timelineRecorder = timeline == null ? null : new TimelineRecorder(timelineEvents);
        if (timelineRecorder != null) {
            Job.watch(timelineRecorder);
        }
        try {
            runner.runHandlingInterrupt(result -> {
            done.add(result);
            if (out != null) {
                try {
                    IndexPage.write(out, List.of(ExperimentOutput.write(out, result, List.of(), pointTimeline)));
                } catch (IOException e) {
                    throw new org.pagefabric.experiment.WriteFailedException("cannot write the results in " + out + ": "
                            + Main.reason(e), Main.reason(e));
                }
            }
            });
        } finally {
            if (recorder != null || timelineRecorder != null) {
                Job.watch(null);
            }
        }
        if (timelineRecorder != null) {
            Integer refused = writeTimeline(timelineRecorder);
            if (refused != null) {
                return refused;
            }
        }
        if (recorder != null) {
            try {
                // the whole trace first, so that a refusal leaves no partial file behind
                java.io.StringWriter text = new java.io.StringWriter();
                recorder.write(text);
                org.pagefabric.experiment.WholeFile.write(recordTrace, text.toString());
            } catch (IOException | IllegalStateException e) {
                spec.commandLine().getErr().println("pagefabric run: --record-trace " + recordTrace + ": "
                        + e.getMessage());
                return ExitCodes.USAGE;
            } catch (org.pagefabric.experiment.WriteFailedException e) {
                // checked before the run: what fails now is the disk, not the path
                spec.commandLine().getErr().println("pagefabric run: " + e.getMessage() + "; no trace was written");
                return ExitCodes.FAILURE;
            }
        }
        ExperimentResult result = done.get(0);
        List<Map<String, Object>> rows = result.rows();
        PrintWriter o = spec.commandLine().getOut();
        String notVerified = VerificationNotice.line(rows, "size_B");
        if (notVerified != null) {
            // First thing a reader sees; machine-readable output stays pure, so it goes beside it there.
            (output.format == Format.csv || output.format == Format.json ? spec.commandLine().getErr() : o).println(notVerified);
            spec.commandLine().getErr().flush();
        }
        switch (output.format) {
            case csv -> o.print(RowFormat.csv(rows));
            case json -> o.print(RowFormat.json(rows));
            case table -> o.print(RowFormat.table(rows, tableColumns(rows, experiment.workload())));
            case markdown -> o.print(RowFormat.markdown(rows, tableColumns(rows, experiment.workload())));
        }
        o.flush();
        if (!result.complete()) {
            spec.commandLine().getErr().println("pagefabric run: stopped early; the rows above are the finished ones");
        }
        if (!result.allVerified()) {
            spec.commandLine().getErr().println("pagefabric run: some transfers did not verify (column 'verified')");
            return ExitCodes.FAILURE;
        }
        return result.complete() ? ExitCodes.OK : ExitCodes.INCOMPLETE;
    }

    /** The command that made a recording, for its header. */
    private String commandLine() {
        return "pagefabric run " + workload + " --policy " + policies.get(0) + " --profile " + profile
                + " --sizes " + sizes + " --iterations " + iterations + " --seed " + seed
                + (schemes.isEmpty() ? "" : " --scheme " + schemes.get(0))
                + sets.stream().map(s -> " --set " + s).reduce("", String::concat);
    }

    /** The experiment these options describe, as a spec: one pipeline for every run. */
    private String specText(Workload w, List<Long> sizeList) {
        StringBuilder b = new StringBuilder();
        b.append("id: run.").append(w.name()).append('\n');
        b.append("title: \"").append(w.name()).append(schemes.isEmpty() ? "" : " (" + String.join(", ", schemes) + ")")
                .append(" under ").append(String.join(", ", policies)).append(" on ")
                .append(profile.replace("\"", "")).append("\"\n");
        b.append("workload: ").append(w.name()).append('\n');
        b.append("policies: [").append(String.join(", ", policies)).append("]\n");
        b.append("profile: \"").append(profile.replace("\\", "\\\\").replace("\"", "\\\"")).append("\"\n");
        b.append("seed: ").append(seed).append('\n');
        // a workload without a message size (pin-cost, mpi-app) runs once per policy, with its own parameters
        boolean sized = w.parameter("size_B") != null;
        StringBuilder grid = new StringBuilder();
        if (sized) {
            grid.append("  size_B: ").append(sizeList).append('\n');
        }
        if (w.parameter("iterations") != null) {
            grid.append("  iterations: ").append(iterations).append('\n');
        }
        if (!schemes.isEmpty()) {
            grid.append("  scheme: [").append(String.join(", ", schemes)).append("]\n");
        }
        b.append(grid.isEmpty() ? "grid: {}\n" : "grid:\n" + grid);
        b.append("metrics: [").append(w.mainMetric()).append("]\n");
        b.append("plot: {x: ").append(sized ? "size_B" : "policy").append(", y: ").append(w.mainMetric())
                .append(", series: ").append(w.parameter(StandardParameters.SCHEME) != null ? "scheme/policy" : "policy")
                .append(", logx: ").append(sized).append(", logy: ").append(sized).append("}\n");
        return b.toString();
    }

    /**
     * The columns worth a terminal: parameters set or swept, then the usual metrics, each once; a
     * metric no row has a value for is left out (a policy without a cache has no hit rate), and so
     * is a bandwidth of zero everywhere, which a latency workload does not measure.
     */
    static List<String> tableColumns(List<Map<String, Object>> rows, Workload w) {
        java.util.Set<String> cols = new java.util.LinkedHashSet<>(columnsOf(rows, w));
        cols.removeIf(c -> !c.equals("verified") && !c.equals(w.mainMetric()) && !c.equals("policy")
                && (rows.stream().allMatch(r -> r.get(c) == null)
                || c.equals("bandwidth_MBps") && rows.stream().allMatch(r -> r.get(c) == null
                || r.get(c) instanceof Number n && n.doubleValue() == 0)));
        return new ArrayList<>(cols);
    }

    private static List<String> columnsOf(List<Map<String, Object>> rows, Workload w) {
        if (w.parameter(StandardParameters.SIZE) == null) {
            List<String> cols = new ArrayList<>(List.of("policy"));
            cols.addAll(w.parameterNames());
            cols.add(w.mainMetric());
            cols.addAll(List.of("latency_us", "pinned_MiB", "hit_rate_pct", "verified"));
            return cols;
        }
        List<String> cols = new ArrayList<>(List.of("policy"));
        if (w.parameter(StandardParameters.SCHEME) != null) {
            cols.add(StandardParameters.SCHEME);
        }
        cols.add("size_B");
        for (String c : RowFormat.columns(rows)) {
            if (c.contains(".") && !cols.contains(c)) {
                cols.add(c);
            }
        }
        cols.addAll(List.of("latency_us", "latency_p50_us", "bandwidth_MBps", "pinned_MiB", "setup_us",
                "retransmissions", "verified"));
        if (rows.stream().anyMatch(VerificationNotice::failed)) {
            cols.add(VerificationNotice.REASON);
        }
        return cols;
    }
}
