package org.pagefabric.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.pagefabric.experiment.ExperimentPoint;
import org.pagefabric.experiment.ExperimentResult;
import org.pagefabric.experiment.ExperimentRunner;
import org.pagefabric.experiment.ExperimentSpec;
import org.pagefabric.experiment.ExpectedFailures;
import org.pagefabric.experiment.PointCache;
import org.pagefabric.experiment.PointPool;
import org.pagefabric.experiment.ProgressLog;
import org.pagefabric.experiment.ResultWriter;
import org.pagefabric.experiment.Shard;
import org.pagefabric.experiment.SpecReader;
import org.pagefabric.experiment.VerdictTally;
import org.pagefabric.experiment.VerificationNotice;
import org.pagefabric.experiment.WriteFailedException;
import org.pagefabric.experiment.sensitivity.FragileMarks;
import org.pagefabric.report.IndexEntry;
import org.pagefabric.report.IndexPage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code pagefabric reproduce}: runs the bundled experiments of the seeds (or a spec file) and
 * puts, for every number a seed publishes, the paper's value beside ours. An experiment whose
 * {@code requires} names something missing is refused in one line with its reason, never faked.
 */
@Command(name = "reproduce", mixinStandardHelpOptions = true,
        description = "Reproduce the seeds' experiments: by id, by seed (part, odp, aa, omx, firehose, all), or a spec file.")
final class ReproduceCommand implements Callable<Integer> {
    /** Seed names on the command line and the id prefix of their experiments. */
    static final Map<String, String> SEEDS = new LinkedHashMap<>();

    static {
        SEEDS.put("part", "part.");
        SEEDS.put("odp", "odp.");
        SEEDS.put("aa", "aa.");
        SEEDS.put("omx", "omx.");
        SEEDS.put("firehose", "fh.");
    }

    /** The comparison columns a table shows (CSV and JSON carry every column, the notes and sources too). */
    private static final List<String> COMPARISON_COLUMNS = List.of("experiment", "series", "x", "metric", "paper",
            "tolerance", "ours", "ratio", "verdict", "role");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "ID|SEED|FILE", arity = "0..*",
            description = "Experiment ids (e.g. part.fig7), seeds (part, odp, aa, omx, firehose, all: the default) or spec files.")
    List<String> targets = new ArrayList<>();

    @CommandLine.Mixin
    GridOverrides grid;

    @CommandLine.Mixin
    WorkerThreads threads;

    @Option(names = "--format", defaultValue = "table",
            description = "Comparison output: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
    RunCommand.Format format;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results",
            description = "Where results, plots and reports go (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--shard", paramLabel = "I/N",
            description = "Run shard I of N: a share of every experiment's points balanced by estimated cost;"
                    + " its rows go to --out for pagefabric merge.")
    String shard;

    @Option(names = "--resume", description = "Skip the points already finished under --out (after Ctrl-C, kill"
            + " or a lost node); the default, stated explicitly. Finished points are kept in --out/.points.")
    boolean resume;

    @Option(names = "--no-cache", description = "Run every point again, reading and storing nothing in --out/.points.")
    boolean noCache;

    @Option(names = "--sensitivity", description = "Show beside each published number the band of ours and whether its"
            + " verdict is robust or fragile, from a pagefabric sensitivity run with the same --quick and --set into"
            + " the same --out.")
    boolean sensitivity;

    /** What each experiment's stored sensitivity study says, one line each, for the summary. */
    private final List<String> fragileLines = new ArrayList<>();

    /**
     * The clocks of progress lines on standard error, or null for none: set when standard error
     * is not a terminal (a log file), where a bar cannot be drawn.
     */
    ProgressLog.Clock progressClock;

    /** The bundled id or spec file each selected spec came from, in order (what a shard records). */
    private final List<String> sources = new ArrayList<>();

    @Override
    public Integer call() throws IOException {
        // a bad --shard is one line, before anything runs
        Shard share = shard == null ? null : Shard.parse(shard);
        if (resume && noCache) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--resume and --no-cache contradict each other: --resume reads the finished points --no-cache ignores");
        }
        List<ExperimentSpec> specs;
        Map<String, String> overrides;
        PointCache cache;
        try {
            threads.count(); // refuses a count out of range before anything is written
            cache = noCache ? null : PointCache.under(out);
            specs = select();
            overrides = RunCommand.parseSets(grid.sets);
            // an id that would leave --out is refused before its points run, not after
            specs.forEach(s -> ResultWriter.directoryFor(out, s.id()));
            // the output last: a check creates the directory, and a refused command leaves none
            OutputPaths.directory("--out", out);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (share != null) {
            return runShard(share, specs, overrides, cache);
        }
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        int n = specs.size();
        IndexEntry[] entries = new IndexEntry[n];
        ExperimentResult[] results = new ExperimentResult[n];
        List<List<Map<String, Object>>> comparisons = new ArrayList<>(java.util.Collections.nCopies(n, List.of()));
        int refused = 0;
        List<ExperimentRunner> runners = new ArrayList<>();
        List<Integer> runnerSpec = new ArrayList<>();
        for (int k = 0; k < n; k++) {
            ExperimentSpec s = specs.get(k);
            if (!s.runnable()) {
                refused++;
                err.println(s.id() + ": not reproducible yet: " + String.join("; ", s.requires()));
                entries[k] = ExperimentOutput.pending(out, s);
                continue;
            }
            runners.add(runner(s, overrides, cache));
            runnerSpec.add(k);
        }
        boolean[] stoppedBeforeRows = {false};
        try {
            runAll(runners, runnerSpec, specs, overrides, entries, comparisons, results, stoppedBeforeRows);
        } catch (RuntimeException e) {
            throw withMissing(e, specs, results);
        }
        List<IndexEntry> index = new ArrayList<>();
        List<Map<String, Object>> allComparisons = new ArrayList<>();
        List<String> tallies = new ArrayList<>();
        // one experiment's tally, which can say what a full run compares
        String tallyLine = null;
        // experiments that publish no number to compare with (a user's spec) show their rows instead
        List<Map<String, Object>> ownRows = new ArrayList<>();
        List<String> ownColumns = new ArrayList<>();
        int ran = 0;
        int idWidth = specs.stream().mapToInt(sp -> sp.id().length()).max().orElse(1);
        boolean verified = true;
        List<String> notAsExpected = new ArrayList<>();
        // experiments that check a claim of the design, each with the reason no measurement exists
        List<String> designChecks = new ArrayList<>();
        boolean complete = !stoppedBeforeRows[0];
        for (int k = 0; k < n; k++) {
            ExperimentSpec s = specs.get(k);
            if (entries[k] != null) {
                index.add(entries[k]);
            }
            ExperimentResult r = results[k];
            if (r == null) {
                continue;
            }
            ran++;
            List<Map<String, Object>> comparison = comparisons.get(k);
            if (!comparison.isEmpty()) {
                tallies.add(String.format(java.util.Locale.ROOT, "%-" + idWidth + "s  %s", s.id(),
                        VerdictTally.of(comparison).summary()));
                tallyLine = ExperimentOutput.tallyLine(s, r, comparison);
            }
            if (s.designCheck() != null) {
                designChecks.add(String.format(java.util.Locale.ROOT, "%-" + idWidth + "s  %s", s.id(), s.checks()));
            }
            ExpectedFailures outcome = ExpectedFailures.check(r.spec(), r.rows());
            if (!outcome.asExpected()) {
                verified = false;
                notAsExpected.add(s.id());
            }
            if (s.reference().isEmpty()) {
                ownRows.addAll(r.rows());
                ownColumns.addAll(rowColumns(r.spec()).stream().filter(c -> !ownColumns.contains(c)).toList());
            }
            for (Map<String, Object> c : comparison) {
                Map<String, Object> row = new LinkedHashMap<>();
                row.put("experiment", s.id());
                row.putAll(c);
                allComparisons.add(row);
            }
            if (!r.complete()) {
                complete = false;
                err.println(s.id() + ": stopped early; the finished rows are in " + out.resolve(s.id()));
            }
        }
        IndexPage.write(out, index);
        // First thing a reader sees; machine-readable output stays pure, so it goes beside it there.
        PrintWriter notice = format == RunCommand.Format.csv || format == RunCommand.Format.json ? err : o;
        for (ExperimentResult r : results) {
            String line = r == null ? null : ExperimentOutput.verificationLine(r);
            if (line != null) {
                notice.println(r.spec().id() + ": " + line);
            }
        }
        err.flush();
        // Several experiments on a terminal end in one line each; the whole table is for --format and the reports.
        boolean table = spec.commandLine().getParseResult().hasMatchedOption("--format") || n == 1;
        if (!ownRows.isEmpty() && table) {
            switch (format) {
                case csv -> o.print(RowFormat.csv(ownRows));
                case json -> o.print(RowFormat.json(ownRows));
                case table -> o.print(RowFormat.table(ownRows, ownColumns));
                case markdown -> o.print(RowFormat.markdown(ownRows, ownColumns));
            }
            if (!allComparisons.isEmpty() && format == RunCommand.Format.table) {
                o.println();
            }
        }
        if (table) {
            switch (format) {
                case csv -> o.print(RowFormat.csv(allComparisons));
                case json -> o.print(RowFormat.json(allComparisons));
                case table -> {
                    if (!allComparisons.isEmpty()) {
                        o.print(RowFormat.leftTable(allComparisons, comparisonColumns()));
                    }
                }
                case markdown -> {
                    if (!allComparisons.isEmpty()) {
                        o.print(RowFormat.markdown(allComparisons, comparisonColumns()));
                    }
                }
            }
        }
        // The table first: on a terminal both streams share the screen, and the summary closes it.
        o.flush();
        tallies.forEach(err::println);
        designChecks.forEach(err::println);
        fragileLines.forEach(err::println);
        if (!allComparisons.isEmpty()) {
            VerdictTally total = VerdictTally.of(allComparisons);
            err.println(tallies.size() > 1 ? "in total: " + total.total() : tallyLine);
            if (grid.quick) {
                err.println("reproduce: --quick compares only the points that run the paper's own set-up;"
                        + " the others are not comparable until a run without --quick");
            }
        }
        if (!table && (!allComparisons.isEmpty() || !ownRows.isEmpty())) {
            err.println("reproduce: every number beside the paper's: --format table (or csv, json, markdown),"
                    + " and the reports");
        }
        reportCache(err, cache);
        err.println("reproduce: " + ran + " run, " + refused + " not reproducible yet; reports in "
                + out.resolve(IndexPage.FILE_NAME));
        err.flush();
        if (!verified) {
            err.println("reproduce: rows that did not come out as their spec expects (column 'verified'): "
                    + String.join(", ", notAsExpected));
            return ExitCodes.FAILURE;
        }
        if (!complete) {
            return ExitCodes.INCOMPLETE;
        }
        boolean namedOnlyRefused = ran == 0 && refused > 0 && !targets.isEmpty()
                && targets.stream().noneMatch(t -> t.equals("all") || SEEDS.containsKey(t));
        return namedOnlyRefused ? ExitCodes.USAGE : ExitCodes.OK;
    }

    /** Runs every experiment's points in one pool; each experiment is written as soon as its last point is done. */
    private void runAll(List<ExperimentRunner> runners, List<Integer> runnerSpec, List<ExperimentSpec> specs,
            Map<String, String> overrides, IndexEntry[] entries, List<List<Map<String, Object>>> comparisons, ExperimentResult[] results,
            boolean[] stoppedBeforeRows) {
        pool(runners).runHandlingInterrupt(true, (j, result, ran) -> {
            int k = runnerSpec.get(j);
            if (result.rows().isEmpty()) {
                stoppedBeforeRows[0] |= !result.complete();
                return; // stopped before any of its points finished: nothing to show
            }
            List<Map<String, Object>> comparison = ExperimentOutput.comparison(specs.get(k), result);
            if (sensitivity && !comparison.isEmpty()) {
                comparison = markFragile(specs.get(k), comparison, overrides);
            }
            try {
                entries[k] = ExperimentOutput.write(out, specs.get(k), result, comparison);
            } catch (IOException e) {
                throw new WriteFailedException("cannot write the results of " + specs.get(k).id() + " in " + out
                        + ": " + Main.reason(e), Main.reason(e));
            }
            comparisons.set(k, comparison);
            results[k] = result;
        });
    }

    /**
     * A write that failed while points were stored, named with what it leaves missing: the
     * results of every experiment not written yet. Anything else is returned as it was.
     */
    private RuntimeException withMissing(RuntimeException e, List<ExperimentSpec> specs, ExperimentResult[] results) {
        WriteFailedException w = null;
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c instanceof WriteFailedException f) {
                w = f;
            }
        }
        if (w == null || !w.getMessage().startsWith("cannot store")) {
            return e;
        }
        List<String> missing = new ArrayList<>();
        for (int k = 0; k < specs.size(); k++) {
            if (results[k] == null && specs.get(k).runnable()) {
                missing.add(specs.get(k).id());
            }
        }
        return new WriteFailedException(w.getMessage() + "; no results written for " + (missing.size() <= 5
                ? String.join(", ", missing) : missing.size() + " experiments (" + missing.getFirst() + ", ...)"),
                w.reason());
    }

    /**
     * Runs this shard's share of every experiment and writes, per experiment, the rows (with
     * manifest and resolved spec) into {@code --out/ID}, and {@code shard.json} saying which
     * runs they are. Plots, reports and comparisons wait for {@code pagefabric merge}, which
     * sees every row.
     */
    private int runShard(Shard share, List<ExperimentSpec> specs, Map<String, String> overrides, PointCache cache)
            throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        ShardManifest.Entry[] entries = new ShardManifest.Entry[specs.size()];
        List<ExperimentRunner> runners = new ArrayList<>();
        List<Integer> runnerSpec = new ArrayList<>();
        for (int k = 0; k < specs.size(); k++) {
            ExperimentSpec s = specs.get(k);
            if (!s.runnable()) {
                entries[k] = new ShardManifest.Entry(s.id(), sources.get(k), false, 0, List.of(), true);
                continue;
            }
            runners.add(runner(s, overrides, cache));
            runnerSpec.add(k);
        }
        // the whole sweep's points are dealt together, so that one experiment's lumps even out over the others
        List<List<ExperimentPoint>> shares = share.select(runners.stream().map(r -> r.spec().workload()).toList(),
                runners.stream().map(ExperimentRunner::points).toList());
        for (int j = 0; j < runners.size(); j++) {
            runners.get(j).restrictTo(shares.get(j));
        }
        int[] ran = {0};
        int[] total = {0};
        boolean[] verified = {true};
        List<String> stopped = new ArrayList<>();
        // every experiment is written, even with no rows, so that merge sees the whole sweep's plan
        pool(runners).runHandlingInterrupt(true, (j, r, mine) -> {
            int k = runnerSpec.get(j);
            ExperimentSpec s = specs.get(k);
            ResultWriter.write(r, ResultWriter.directoryFor(out, s.id()));
            entries[k] = new ShardManifest.Entry(s.id(), sources.get(k), true, r.planned(),
                    mine.stream().map(ExperimentPoint::index).toList(), r.complete());
            ran[0] += r.rows().size();
            total[0] += r.planned();
            verified[0] &= ExpectedFailures.check(r.spec(), r.rows()).asExpected();
            if (!r.complete()) {
                stopped.add(s.id());
            }
        });
        for (String id : specs.stream().map(ExperimentSpec::id).filter(stopped::contains).toList()) {
            err.println(id + ": stopped early; the finished rows are in " + out.resolve(id));
        }
        reportCache(err, cache);
        new ShardManifest(share.index(), share.count(), grid.quick, overrides, ResultWriter.build(), List.of(entries))
                .write(out);
        err.println("reproduce: shard " + share.index() + "/" + share.count() + " ran " + ran[0] + " of " + total[0]
                + " points; merge the shards with: pagefabric merge DIR... (this one is " + out + ")");
        err.flush();
        if (!verified[0]) {
            err.println("reproduce: some rows did not come out as their spec expects (column 'verified')");
            return ExitCodes.FAILURE;
        }
        return stopped.isEmpty() ? ExitCodes.OK : ExitCodes.INCOMPLETE;
    }

    /** The comparison columns a table shows; with {@code --sensitivity}, the band and robustness too. */
    private List<String> comparisonColumns() {
        if (!sensitivity) {
            return COMPARISON_COLUMNS;
        }
        List<String> cols = new ArrayList<>(COMPARISON_COLUMNS);
        cols.addAll(List.of("band", "robustness"));
        return cols;
    }

    /**
     * The comparison with the stored sensitivity study's band and robustness beside each number;
     * unchanged, with a line saying how to make one, when {@code --out} holds none for these options.
     */
    private List<Map<String, Object>> markFragile(ExperimentSpec s, List<Map<String, Object>> comparison,
            Map<String, String> overrides) {
        List<Map<String, Object>> marked = FragileMarks.mark(ResultWriter.directoryFor(out, s.id()), comparison, grid.quick,
                overrides);
        if (marked == null) {
            fragileLines.add(s.id() + ": no sensitivity result for these options in " + out.resolve(s.id())
                    + "; run pagefabric sensitivity " + s.id() + (grid.quick ? " --quick" : "") + " --out " + out);
            return comparison;
        }
        String fragile = FragileMarks.fragileLine(marked);
        fragileLines.add(s.id() + ": " + (fragile == null ? "no verdict fragile" : fragile));
        return marked;
    }

    /** Experiment {@code s}'s runner with the command's options, reading and storing points in {@code cache} if any. */
    private ExperimentRunner runner(ExperimentSpec s, Map<String, String> overrides, PointCache cache) {
        ExperimentRunner runner;
        try {
            runner = new ExperimentRunner(s, new ExperimentRunner.Options(threads.count(), grid.quick, true, overrides));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        if (cache != null) {
            runner.useCache(cache);
        }
        return runner;
    }

    private PointPool pool(List<ExperimentRunner> runners) {
        try {
            PointPool pool = new PointPool(runners, threads.count());
            return progressClock == null ? pool
                    : pool.logProgress(new ProgressLog(spec.commandLine().getErr(), "reproduce: ", progressClock));
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** Says how many points came from the cache, if any did: a re-run that ran nothing is never silent. */
    private static void reportCache(PrintWriter err, PointCache cache) {
        List<String> damaged = cache == null ? List.of() : cache.damaged();
        if (damaged.size() == 1) {
            err.println("reproduce: point file " + cache.directory().resolve(damaged.getFirst())
                    + "; its point ran again");
        } else if (!damaged.isEmpty()) {
            err.println("reproduce: " + damaged.size() + " point files in " + cache.directory()
                    + " were damaged and their points ran again: " + String.join("; ", damaged.subList(0,
                    Math.min(3, damaged.size()))) + (damaged.size() > 3 ? "; ..." : ""));
        }
        if (cache != null && cache.hits() > 0) {
            err.println("reproduce: " + cache.hits() + " finished points read back from " + cache.directory()
                    + " (--no-cache runs them again)");
        }
    }

    /** The columns a spec's rows show on a terminal: what varies (experiment, policy, grid axes), then its metrics. */
    private static List<String> rowColumns(ExperimentSpec s) {
        List<String> cols = new ArrayList<>(List.of("experiment", "policy"));
        for (ExperimentSpec.Axis a : s.grid()) {
            if (a.values().size() > 1 && !cols.contains(a.column())) {
                cols.add(a.column());
            }
        }
        if (s.repetitions() > 1) {
            cols.add("repetition");
        }
        s.metrics().stream().filter(m -> !cols.contains(m)).forEach(cols::add);
        cols.add("verified");
        return cols;
    }

    /** The specs the targets name, in index order, each once. */
    private List<ExperimentSpec> select() {
        List<String> ids = SpecReader.bundledIds();
        Set<String> chosen = new LinkedHashSet<>();
        List<ExperimentSpec> files = new ArrayList<>();
        List<String> fileNames = new ArrayList<>();
        List<String> want = targets.isEmpty() ? List.of("all") : targets;
        for (String t : want) {
            if (t.equals("all")) {
                chosen.addAll(ids);
            } else if (SEEDS.containsKey(t)) {
                ids.stream().filter(id -> id.startsWith(SEEDS.get(t))).forEach(chosen::add);
            } else if (ids.contains(t)) {
                chosen.add(t);
            } else if (t.endsWith(".yaml") || t.endsWith(".yml")) {
                files.add(SpecReader.read(Path.of(t)));
                fileNames.add(Path.of(t).toAbsolutePath().normalize().toString());
            } else {
                throw new IllegalArgumentException("'" + t + "' is not an experiment id, a seed or a spec file; seeds: "
                        + String.join(", ", SEEDS.keySet()) + ", all; ids: " + String.join(", ", ids));
            }
        }
        List<ExperimentSpec> specs = new ArrayList<>();
        sources.clear();
        for (String id : chosen) {
            specs.add(SpecReader.bundled(id));
            sources.add(id);
        }
        specs.addAll(files);
        sources.addAll(fileNames);
        return specs;
    }
}
