package org.pagefabric.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.pagefabric.experiment.ExperimentSpec;
import org.pagefabric.experiment.PointCache;
import org.pagefabric.experiment.ResultWriter;
import org.pagefabric.experiment.SpecReader;
import org.pagefabric.experiment.sensitivity.SensitivityFiles;
import org.pagefabric.experiment.sensitivity.SensitivityResult;
import org.pagefabric.experiment.sensitivity.SensitivityStudy;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code pagefabric sensitivity}: how much each published verdict of one experiment rests on the
 * values no source pins down. Says the cost (runs and points) before the varied runs start, and
 * writes the bands to {@code --out/ID/sensitivity.json} and {@code .csv}, where {@code reproduce
 * --sensitivity} finds them.
 */
@Command(name = "sensitivity", mixinStandardHelpOptions = true,
        description = "Vary the assumed and fitted costs an experiment reads within their plausible ranges (one at a"
                + " time, then together in a Latin hypercube) and report, per published number, the band of ours and"
                + " whether its verdict holds across it.")
final class SensitivityCommand implements Callable<Integer> {
    private static final List<String> PARAMETER_COLUMNS = List.of("parameter", "nominal", "range", "basis");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "ID|FILE", description = "A bundled experiment id or a spec file.")
    String target;

    @Option(names = "--quick", description = "Run the spec's quick set-up; verdicts are then those of that set-up.")
    boolean quick;

    @Option(names = "--samples", paramLabel = "N", defaultValue = "8",
            description = "Latin-hypercube samples varying every parameter together (default: ${DEFAULT-VALUE}).")
    int samples;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1",
            description = "Seed of the hypercube: the same seed, the same bands (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--set", paramLabel = "KEY=VALUE", description = "Override a grid key or profile parameter in every run.")
    List<String> sets = new ArrayList<>();

    @Option(names = "--threads", paramLabel = "T", description = "Worker threads per run, 1 to the larger of 1024 and"
            + " 64 per processor; results do not depend on it.")
    Integer threads;

    @CommandLine.Mixin
    FormatOption output;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results",
            description = "Where DIR/ID/sensitivity.json and .csv go, and the varied runs' points are kept"
                    + " (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--no-cache", description = "Run every varied point again, reading and storing nothing in --out/.points.")
    boolean noCache;

    @Option(names = "--plan", description = "Run the nominal experiment only and say which parameters the study would"
            + " vary and how many runs it would take.")
    boolean plan;

    @Override
    public Integer call() throws IOException {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ExperimentSpec s;
        SensitivityStudy.Options options;
        try {
            s = target.endsWith(".yaml") || target.endsWith(".yml") ? SpecReader.read(Path.of(target))
                    : SpecReader.bundled(target);
            if (!s.runnable()) {
                throw new IllegalArgumentException(s.id() + ": not reproducible yet: " + String.join("; ", s.requires()));
            }
            if (s.reference().isEmpty()) {
                throw new IllegalArgumentException(s.id() + ": publishes no number to compare with; sensitivity"
                        + " reports how the verdicts on a paper's numbers move");
            }
            ResultWriter.directoryFor(out, s.id());
            options = new SensitivityStudy.Options(quick, RunCommand.parseSets(sets), samples, seed,
                    WorkerThreads.count(threads),
                    noCache ? null : PointCache.under(out));
            // every --quick and --set error before the first line of progress
            org.pagefabric.experiment.Grid.expand(org.pagefabric.experiment.Grid.effective(s, quick, options.sets()));
            // the output last: a check creates the directory, and a refused command leaves none
            OutputPaths.directory("--out", out);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        err.println("sensitivity " + s.id() + ": the nominal run first, noting which parameters it reads");
        err.flush();
        SensitivityStudy study;
        long started = System.nanoTime();
        try {
            study = SensitivityStudy.prepare(s, options);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        int runs = study.plannedRuns();
        err.println("sensitivity " + s.id() + ": " + study.parameters().size() + " parameters to vary; 1 + 2 x "
                + study.parameters().size() + " + " + samples + " samples = " + runs + " runs of " + study.pointsPerRun()
                + " points (" + (long) runs * study.pointsPerRun() + " points); the nominal one took "
                + seconds(System.nanoTime() - started) + ", so the rest should take about "
                + seconds((System.nanoTime() - started) * (runs - 1)) + " (less where --out holds their points)");
        err.flush();
        if (plan) {
            o.print(table(SensitivityResult.parameterRows(study.parameters()), PARAMETER_COLUMNS));
            o.flush();
            return ExitCodes.OK;
        }
        int[] n = {1};
        SensitivityResult result = study.run(label -> {
            err.println("sensitivity " + s.id() + ": run " + (++n[0]) + " of " + runs + ": " + label);
            err.flush();
        });
        Path dir = ResultWriter.directoryFor(out, s.id());
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(SensitivityFiles.JSON), ResultWriter.json(result.document()),
                StandardCharsets.UTF_8);
        Files.writeString(dir.resolve(SensitivityFiles.CSV), ResultWriter.csv(result.bands()), StandardCharsets.UTF_8);
        switch (output.format) {
            case csv -> o.print(RowFormat.csv(result.bands()));
            case json -> o.print(ResultWriter.json(result.document()));
            case table, markdown -> {
                o.println("parameters varied (" + result.parameters().size() + "):");
                o.print(table(result.parameterRows(), PARAMETER_COLUMNS));
                o.println();
                o.println("published numbers (" + (quick || !sets.isEmpty() ? "verdicts of the --quick/--set set-up"
                        : "verdicts as reproduce gives them") + "):");
                o.print(table(result.bands(), SensitivityResult.COLUMNS));
                if (!result.failures().isEmpty()) {
                    o.println();
                    o.println("runs that produced nothing:");
                    o.print(table(result.failures(), List.of("run", "failure")));
                }
            }
        }
        o.flush();
        err.println("sensitivity " + s.id() + ": " + result.summary() + "; written to " + dir.resolve(SensitivityFiles.JSON));
        err.flush();
        return ExitCodes.OK;
    }

    /** A wall-clock duration as a person reads it: 12 s, 7 min, 3.5 h. */
    private static String seconds(long nanos) {
        double s = nanos / 1e9;
        return s < 120 ? Math.round(s) + " s" : s < 7200 ? Math.round(s / 60) + " min"
                : String.format(java.util.Locale.ROOT, "%.1f h", s / 3600);
    }

    private String table(List<Map<String, Object>> rows, List<String> cols) {
        return output.format == RunCommand.Format.markdown ? RowFormat.markdown(rows, cols) : RowFormat.leftTable(rows, cols);
    }
}
