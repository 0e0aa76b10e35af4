package org.pagefabric.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.pagefabric.experiment.ExperimentPoint;
import org.pagefabric.experiment.ExperimentResult;
import org.pagefabric.experiment.VerificationNotice;
import org.pagefabric.experiment.ExperimentRunner;
import org.pagefabric.experiment.ExperimentSpec;
import org.pagefabric.experiment.Grid;
import org.pagefabric.experiment.PolicyComparison;
import org.pagefabric.experiment.ReferenceComparison;
import org.pagefabric.experiment.SpecReader;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.report.IndexPage;
import org.pagefabric.report.PolicyDecision;
import org.pagefabric.workload.SchemeRegistry;
import org.pagefabric.workload.StandardParameters;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadParameter;
import org.pagefabric.workload.WorkloadRegistry;
import java.util.function.UnaryOperator;
import org.pagefabric.config.ParameterReads;
import org.pagefabric.config.Profile;
import org.pagefabric.experiment.ResultWriter;
import org.pagefabric.experiment.sensitivity.LatinHypercube;
import org.pagefabric.experiment.sensitivity.PolicyBands;
import org.pagefabric.experiment.sensitivity.SensitivityStudy;
import org.pagefabric.experiment.sensitivity.Variation;
import org.pagefabric.experiment.sensitivity.VariedParameter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code pagefabric compare}: registration policies on the same work (the Caffeine-simulator
 * view: one trace, every policy), and which one to choose. Two forms, one pipeline:
 *
 * <ul>
 *   <li>{@code compare WORKLOAD}: the workload over message sizes on one profile;
 *   <li>{@code compare EXPERIMENT|SPEC.yaml [--quick]}: a bundled experiment under every policy,
 *       or a spec file under its own {@code policies:}.
 * </ul>
 *
 * <p>Each policy runs as its own experiment, so a policy that cannot run (a {@link PolicyRefusal}),
 * fails, or corrupts data is listed apart with its reason while the others are ranked
 * ({@link PolicyComparison}). A workload with application schemes is compared under one scheme.
 */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = "Registration policies on one workload or experiment: ranked per size, the trade-off against pinned"
                + " memory, and one recommendation per size.")
final class CompareCommand implements Callable<Integer> {
    /** Where an experiment comparison's results go without {@code --out}. */
    static final Path DEFAULT_OUT = Path.of("results");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(index = "0", paramLabel = "WORKLOAD|EXPERIMENT",
            description = "A workload (pagefabric info workloads), an experiment id (pagefabric info experiments) or a spec file.")
    String target;

    @Option(names = "--policy", paramLabel = "P", description = "Compare only these policies (repeatable; default: every"
            + " policy, or a spec file's policies).")
    List<String> policies = new ArrayList<>();

    @Option(names = "--schemes", description = "Rank the workload's application schemes under one registration"
            + " policy (--policy P, default pin-all) instead of the policies under one scheme.")
    boolean schemes;

    @Option(names = "--scheme", paramLabel = "S", description = "The application scheme the policies run under, for a"
            + " workload with schemes (default: the workload's default scheme; pagefabric info schemes).")
    String scheme;

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

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override a profile parameter, a workload parameter"
            + " or grid key, seed or repetitions, e.g. --set link.loss=0.01 (repeatable).")
    List<String> sets = new ArrayList<>();

    @CommandLine.Mixin
    WorkerThreads threads;

    @Option(names = "--out", paramLabel = "DIR", description = "Write rows, plots and report to DIR/compare-ID and list"
            + " them in DIR/index.html (default for an EXPERIMENT: results; a WORKLOAD: not written); the report"
            + " shows the timeline of the winner's point, written beside it as timeline.json.")
    Path out;

    @CommandLine.Mixin
    FormatOption output;

    @Option(names = "--bands", description = "Also run every policy at --samples joint samples of the plausible ranges"
            + " of the assumed and fitted costs the comparison reads, and show each policy's band of the main metric"
            + " and whether the ranking holds across it.")
    boolean bands;

    @Option(names = "--samples", paramLabel = "N", defaultValue = "8",
            description = "With --bands: Latin-hypercube samples (default: ${DEFAULT-VALUE}).")
    int samples;

    @Option(names = "--bands-seed", paramLabel = "S", defaultValue = "1",
            description = "With --bands: the hypercube's seed; the same seed, the same bands (default: ${DEFAULT-VALUE}).")
    long bandsSeed;

    @Override
    public Integer call() throws IOException {
        if (bands && (samples < 1 || samples > SensitivityStudy.MAX_SAMPLES)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--samples must be from 1 to "
                    + SensitivityStudy.MAX_SAMPLES + ", not " + samples);
        }
        ParameterReads reads = new ParameterReads();
        UnaryOperator<Profile> recording = bands ? p -> p.recording(reads) : UnaryOperator.identity();
        List<ExperimentSpec> ranSpecs = new ArrayList<>();
        List<List<Map<String, Object>>> ranRows = new ArrayList<>();
        boolean file = target.endsWith(".yaml") || target.endsWith(".yml");
        boolean experiment = file || SpecReader.bundledIds().contains(target);
        ExperimentSpec base = experiment ? experimentSpec(file) : workloadSpec();
        Map<String, String> overrides = RunCommand.parseSets(sets);
        String chosenScheme = schemes ? null : chooseScheme(base.workload(), overrides);
        if (chosenScheme != null) {
            overrides.put(StandardParameters.SCHEME, chosenScheme);
        }
        String fixedPolicy = schemes ? schemesPolicy(base.workload()) : null;
        List<String> candidates = schemes ? SchemeRegistry.standard().names(base.workload().name())
                : candidatePolicies(file ? base.policies() : PolicyRegistry.standard().names());
        int t = threads.count();
        String id = "compare-" + base.id().replaceFirst("^run\\.", "");
        ExperimentSpec drawn = oneSeriesPer(base, schemes ? StandardParameters.SCHEME : "policy");
        // every --set and --quick error comes before anything runs
        ExperimentSpec asRun = Grid.effective(drawn, quick, overrides);
        // the output last: a check creates the directory, and a refused command leaves none
        OutputPaths.directory("--out", out != null ? out : experiment ? DEFAULT_OUT : null);
        boolean higherIsBetter = higherIsBetter(asRun);
        PolicyComparison comparison = new PolicyComparison(xColumn(asRun), schemes ? StandardParameters.SCHEME : "policy",
                metric(asRun), higherIsBetter);
        List<Map<String, Object>> rows = new ArrayList<>();
        List<String> ran = new ArrayList<>();
        List<Map<String, String>> ranSettings = new ArrayList<>();
        for (String candidate : candidates) {
            // A candidate is a policy under the chosen scheme, or (--schemes) a scheme under the one policy.
            String policy = schemes ? fixedPolicy : candidate;
            Map<String, String> settings = overrides;
            ExperimentSpec effective = asRun;
            if (schemes) {
                settings = new java.util.LinkedHashMap<>(overrides);
                settings.put(StandardParameters.SCHEME, candidate);
                effective = Grid.effective(drawn, quick, settings);
            }
            if (!Grid.runsUnder(effective, policy)) {
                comparison.exclude(candidate, PolicyComparison.CANNOT_RUN, schemes
                        ? "needs registration that " + policy + " does not give"
                        : "gives scheme " + chosenScheme + " none of the registration it needs");
                continue;
            }
            ExperimentRunner runner = ExperimentRunner.varying(drawn.withPolicies(id, List.of(policy)),
                    new ExperimentRunner.Options(t, quick, true, settings), recording);
            String cannot = refusalBeforeRunning(runner, base);
            if (cannot != null) {
                comparison.exclude(candidate, PolicyComparison.CANNOT_RUN, cannot);
                continue;
            }
            try {
                List<Map<String, Object>> candidateRows = runner.run().rows();
                rows.addAll(candidateRows);
                comparison.addRows(candidateRows);
                ran.add(candidate);
                ranSettings.add(settings);
                ranSpecs.add(runner.spec());
                ranRows.add(candidateRows);
            } catch (ExperimentRunner.PointFailedException e) {
                PolicyRefusal refusal = refusal(e);
                if (refusal != null) {
                    comparison.exclude(candidate, PolicyComparison.CANNOT_RUN, refusal.getMessage());
                } else {
                    comparison.exclude(candidate, PolicyComparison.FAILED, oneLine(e.getCause() != null ? e.getCause() : e));
                }
            }
        }
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<String> apart = comparison.exclusionLines();
        if (ran.isEmpty()) {
            apart.forEach(l -> err.println("compare: " + l));
            err.println("compare: no policy ran " + base.id());
            err.flush();
            boolean onlyRefused = comparison.exclusions().values().stream()
                    .allMatch(r -> r.startsWith(PolicyComparison.CANNOT_RUN));
            return onlyRefused ? ExitCodes.USAGE : ExitCodes.FAILURE;
        }
        List<Map<String, Object>> table = comparison.table();
        Map<Object, String> recommendations = comparison.recommendations();
        Path root = out != null ? out : experiment ? DEFAULT_OUT : null;
        if (root != null) {
            ExperimentSpec all = asRun.withPolicies(id, schemes ? List.of(fixedPolicy) : ran);
            ExperimentResult result = new ExperimentResult(all, quick, overrides, rows.size(), rows, true);
            List<Map<String, Object>> paper = all.reference().isEmpty() ? List.of()
                    : ReferenceComparison.compare(base, result, all);
            String pinned = !table.isEmpty() && table.get(0).containsKey(PolicyComparison.PEAK_PINNED) ? PolicyComparison.PEAK_PINNED
                    : PolicyComparison.PINNED;
            PointTimeline timeline = winnersTimeline(table, comparison.xColumn(), ran, ranRows, ranSettings, drawn, id,
                    fixedPolicy);
            IndexPage.write(root, List.of(ExperimentOutput.writeComparison(root, base, result, paper, new PolicyDecision(
                    comparison.xColumn(), comparison.metric(), pinned, table, recommendations, apart), timeline)));
        }
        List<String> columns = table.isEmpty() ? List.of() : new ArrayList<>(table.get(0).keySet());
        String notVerified = VerificationNotice.line(rows, comparison.xColumn());
        if (notVerified != null) {
            // First thing a reader sees; machine-readable output stays pure, so it goes beside it there.
            (output.format == RunCommand.Format.csv || output.format == RunCommand.Format.json ? err : o).println(notVerified);
            err.flush();
        }
        switch (output.format) {
            case csv -> o.print(RowFormat.csv(table));
            case json -> o.print(RowFormat.json(table));
            case table -> {
                o.print(RowFormat.leftTable(table, columns));
                printDecision(o, comparison, recommendations, apart);
            }
            case markdown -> {
                o.print(RowFormat.markdown(table, columns));
                printDecision(o, comparison, recommendations, apart);
            }
        }
        o.flush();
        if (output.format == RunCommand.Format.csv || output.format == RunCommand.Format.json) {
            // the machine-readable output stays pure; the decision goes beside it
            printDecision(err, comparison, recommendations, apart);
        }
        if (bands) {
            String candidateColumn = schemes ? StandardParameters.SCHEME : "policy";
            PolicyBands band = bands(comparison, candidateColumn, ran, ranSpecs, ranRows, reads, t, err);
            PrintWriter w = output.format == RunCommand.Format.csv || output.format == RunCommand.Format.json ? err : o;
            w.println();
            w.println("bands of " + comparison.metric() + " over " + band.samples() + " joint samples of the plausible"
                    + " ranges:");
            w.print(output.format == RunCommand.Format.markdown ? RowFormat.markdown(band.table(), bandColumns(comparison,
                    candidateColumn)) : RowFormat.leftTable(band.table(), bandColumns(comparison, candidateColumn)));
            band.rankingLines().forEach(w::println);
            w.flush();
            if (root != null) {
                java.nio.file.Files.writeString(ResultWriter.directoryFor(root, id).resolve("bands.csv"),
                        ResultWriter.csv(band.table()), java.nio.charset.StandardCharsets.UTF_8);
            }
        }
        String what = schemes ? (ran.size() == 1 ? " scheme ran under " + fixedPolicy + ", "
                : " schemes ran under " + fixedPolicy + ", ") : ran.size() == 1 ? " policy ran, " : " policies ran, ";
        err.println("compare: " + ran.size() + what + comparison.exclusions().size()
                + " listed apart" + (root == null ? "" : "; report in " + root.resolve(id).resolve("report.html")));
        err.flush();
        return ExitCodes.OK;
    }

    /**
     * The timeline of the candidate ranked first at the first x of the ranking, at the point of
     * its first row there, or {@code null} when nothing was ranked.
     */
    private PointTimeline winnersTimeline(List<Map<String, Object>> table, String xColumn, List<String> ran,
            List<List<Map<String, Object>>> ranRows, List<Map<String, String>> ranSettings, ExperimentSpec drawn,
            String id, String fixedPolicy) {
        if (table.isEmpty()) {
            return null;
        }
        String candidateColumn = schemes ? StandardParameters.SCHEME : "policy";
        String winner = String.valueOf(table.getFirst().get(candidateColumn));
        String x = String.valueOf(table.getFirst().get(xColumn));
        int k = ran.indexOf(winner);
        Map<String, Object> row = k < 0 ? null : ranRows.get(k).stream()
                .filter(r -> String.valueOf(r.get(xColumn)).equals(x)).findFirst().orElse(null);
        if (row == null || !(row.get("point") instanceof Number point) || !(row.get("repetition") instanceof Number rep)) {
            return null;
        }
        String policy = schemes ? fixedPolicy : winner;
        ExperimentRunner runner = new ExperimentRunner(drawn.withPolicies(id, List.of(policy)),
                new ExperimentRunner.Options(1, quick, false, ranSettings.get(k)));
        ExperimentPoint p = runner.points().stream()
                .filter(q -> q.point() == point.intValue() && q.repetition() == rep.intValue()).findFirst().orElse(null);
        if (p == null) {
            return null;
        }
        String at = xColumn.equals("workload") ? "" : " at " + xColumn + " " + x;
        return PointTimeline.record(runner, p.index(), "The " + candidateColumn + " ranked first" + at + ", " + winner
                + (schemes ? " under " + fixedPolicy : "") + ": its point " + p.label() + ".",
                "pagefabric compare " + target + ": " + p.label());
    }

    /**
     * Runs every candidate that ran at each joint sample of the plausible ranges of the parameters
     * the nominal runs read, and collects each candidate's metric per x.
     */
    private PolicyBands bands(PolicyComparison comparison, String candidateColumn, List<String> ran,
            List<ExperimentSpec> ranSpecs, List<List<Map<String, Object>>> ranRows, ParameterReads reads, int t,
            PrintWriter err) {
        PolicyBands band = new PolicyBands(candidateColumn, comparison.xColumn(), comparison.metric(),
                higherIsBetter(ranSpecs.getFirst()));
        ExperimentSpec first = ranSpecs.getFirst();
        List<VariedParameter> varied = SensitivityStudy.choose(first, reads);
        err.println("compare --bands: " + varied.size() + " parameters to vary; " + samples + " samples x "
                + ran.size() + " candidates = " + samples * ran.size() + " more runs");
        err.flush();
        double[][] lhs = LatinHypercube.sample(samples, varied.size(), bandsSeed);
        ranRows.forEach(r -> band.add(0, r));
        for (int i = 0; i < samples; i++) {
            Map<org.pagefabric.config.Parameter, Double> at = new java.util.LinkedHashMap<>();
            for (int j = 0; j < varied.size(); j++) {
                at.put(varied.get(j).parameter(), lhs[i][j]);
            }
            Variation variation = new Variation(at);
            for (int k = 0; k < ran.size(); k++) {
                try {
                    band.add(i + 1, candidateRows(ranSpecs.get(k), variation, t));
                } catch (RuntimeException e) {
                    err.println("compare --bands: sample " + (i + 1) + ", " + ran.get(k) + ": " + oneLine(e));
                }
            }
        }
        return band;
    }

    /** The rows of one candidate's spec as run, on profiles {@code vary} derives. */
    private static List<Map<String, Object>> candidateRows(ExperimentSpec asRun, UnaryOperator<Profile> vary, int t) {
        // asRun has --quick and --set applied already
        return ExperimentRunner.varying(asRun, new ExperimentRunner.Options(t, false, false, Map.of()), vary).run()
                .rows();
    }

    private static List<String> bandColumns(PolicyComparison c, String candidateColumn) {
        List<String> cols = new ArrayList<>(List.of(c.xColumn(), candidateColumn, c.metric() + "_nominal"));
        cols.addAll(List.of("band", "rank_nominal", "ranks_seen"));
        return cols;
    }

    private static void printDecision(PrintWriter w, PolicyComparison c, Map<Object, String> recommendations,
                                      List<String> apart) {
        w.println();
        recommendations.forEach((x, line) -> w.println("recommended at " + c.xColumn() + " " + x + ": " + line));
        apart.forEach(l -> w.println("not ranked, " + l));
        w.flush();
    }

    /** A bundled experiment or a spec file, which must be able to run. */
    private ExperimentSpec experimentSpec(boolean file) {
        ExperimentSpec base = file ? SpecReader.read(Path.of(target)) : SpecReader.bundled(target);
        if (!base.runnable()) {
            throw new IllegalArgumentException(base.id() + ": not reproducible yet: " + String.join("; ", base.requires()));
        }
        return base;
    }

    /** The workload over the sizes on the profile, as a spec: one pipeline for both forms. */
    private ExperimentSpec workloadSpec() {
        Workload w;
        try {
            w = WorkloadRegistry.standard().byName(target);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + "; or an experiment id: "
                    + String.join(", ", SpecReader.bundledIds()), e);
        }
        List<Long> sizeList = SizeList.parse(sizes);
        if (iterations <= 0) {
            throw new IllegalArgumentException("--iterations must be positive, not " + iterations);
        }
        boolean sized = w.parameter(StandardParameters.SIZE) != null;
        StringBuilder b = new StringBuilder();
        b.append("id: run.").append(w.name()).append('\n');
        b.append("title: \"").append(w.name()).append(" under every policy on ").append(profile.replace("\"", ""))
                .append("\"\n");
        b.append("workload: ").append(w.name()).append('\n');
        b.append("policies: [").append(PolicyRegistry.DEFAULT).append("]\n");
        b.append("profile: \"").append(profile.replace("\\", "\\\\").replace("\"", "\\\"")).append("\"\n");
        b.append("seed: ").append(seed).append('\n');
        StringBuilder grid = new StringBuilder();
        if (sized) {
            grid.append("  size_B: ").append(sizeList).append('\n');
        }
        if (w.parameter(StandardParameters.ITERATIONS) != null) {
            grid.append("  iterations: ").append(iterations).append('\n');
        }
        b.append(grid.isEmpty() ? "grid: {}\n" : "grid:\n" + grid);
        b.append("metrics: [").append(w.mainMetric()).append("]\n");
        b.append("plot: {x: ").append(sized ? "size_B" : "policy").append(", y: ").append(w.mainMetric())
                .append(", series: policy, logx: ").append(sized).append(", logy: ").append(sized).append("}\n");
        return SpecReader.parse("(command line)", b.toString(), Path.of("").toAbsolutePath());
    }

    /**
     * The one scheme the policies are compared under: {@code --scheme}, a {@code --set scheme=},
     * else the workload's default; {@code null} for a workload without schemes.
     */
    private String chooseScheme(Workload w, Map<String, String> overrides) {
        WorkloadParameter p = w.parameter(StandardParameters.SCHEME);
        if (p == null) {
            if (scheme != null) {
                throw new IllegalArgumentException("--scheme: workload '" + w.name() + "' runs no scheme; those that do: "
                        + String.join(", ", WorkloadRegistry.standard().names().stream().filter(
                        n -> WorkloadRegistry.standard().byName(n).parameter(StandardParameters.SCHEME) != null).toList()));
            }
            return null;
        }
        if (scheme != null) {
            return scheme;
        }
        return overrides.getOrDefault(StandardParameters.SCHEME, String.valueOf(p.defaultValue()));
    }

    /** The policies to compare: {@code --policy} if given (each a known policy), else {@code all}. */
    private List<String> candidatePolicies(List<String> all) {
        if (policies.isEmpty()) {
            return all;
        }
        for (String p : policies) {
            if (!PolicyRegistry.standard().contains(p)) {
                throw new IllegalArgumentException("--policy " + p + ": no such policy; policies: "
                        + String.join(", ", PolicyRegistry.standard().names()));
            }
        }
        return policies.stream().distinct().toList();
    }

    /** The spec with one series per value of {@code column}, the axis being compared. */
    private static ExperimentSpec oneSeriesPer(ExperimentSpec s, String column) {
        ExperimentSpec.Plot p = s.plot();
        if (p == null || p.series().equals(column)) {
            return s;
        }
        return s.withPlot(new ExperimentSpec.Plot(p.x(), p.y(), column, p.logx(), p.logy(), p.title()));
    }

    /** The one policy {@code --schemes} ranks the schemes under: the {@code --policy} given, else pin-all. */
    private String schemesPolicy(Workload w) {
        if (w.parameter(StandardParameters.SCHEME) == null) {
            throw new IllegalArgumentException("--schemes: workload '" + w.name() + "' runs no scheme; those that do: "
                    + String.join(", ", WorkloadRegistry.standard().names().stream().filter(
                    n -> WorkloadRegistry.standard().byName(n).parameter(StandardParameters.SCHEME) != null).toList()));
        }
        if (scheme != null) {
            throw new IllegalArgumentException("--schemes ranks every scheme; --scheme " + scheme + " picks one: give one of them");
        }
        List<String> named = candidatePolicies(List.of(PolicyRegistry.DEFAULT));
        if (named.size() != 1) {
            throw new IllegalArgumentException("--schemes ranks the schemes under one policy; --policy names "
                    + named.size() + ": " + String.join(", ", named));
        }
        return named.get(0);
    }


    /** The column each ranking is made at: the plot's x, unless that is the policy itself. */
    static String xColumn(ExperimentSpec s) {
        String x = s.plot() != null ? s.plot().x() : StandardParameters.SIZE;
        if (x.equals("policy") || x.equals(StandardParameters.SCHEME) || s.plot() == null
                && s.workload().parameter(StandardParameters.SIZE) == null) {
            return "workload";
        }
        return x;
    }

    static String metric(ExperimentSpec s) {
        return s.plot() != null ? s.plot().y() : s.metrics().get(0);
    }

    /** The workload says which way its main metric is better; of the others only rates are. */
    static boolean higherIsBetter(ExperimentSpec s) {
        String metric = metric(s);
        return metric.equals(s.workload().mainMetric()) ? s.workload().higherIsBetter()
                : metric.contains("bandwidth") || metric.contains("hit_rate") || metric.contains("_per_s");
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

    private static String oneLine(Throwable t) {
        return Main.message(t).replace('\n', ' ');
    }
}
