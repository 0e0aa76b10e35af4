package org.pagefabric.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.pagefabric.experiment.ExperimentResult;
import org.pagefabric.experiment.ExperimentRunner;
import org.pagefabric.experiment.ExperimentSpec;
import org.pagefabric.experiment.ResultWriter;
import org.pagefabric.experiment.SpecReader;
import org.pagefabric.experiment.VerdictTally;
import org.pagefabric.report.IndexEntry;
import org.pagefabric.report.IndexPage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code pagefabric merge}: puts the shards of a {@code reproduce --shard I/N} sweep back
 * together. Every row goes to its place in the experiment's plan, and the rows, manifest,
 * resolved spec, comparison, plots, reports and index are written as one unsharded
 * {@code reproduce} with the same options and build writes them, byte for byte. Shards of
 * different sweeps, a missing or repeated shard, or shards from another build are refused in
 * one line.
 */
@Command(name = "merge", mixinStandardHelpOptions = true,
        description = "Merge the output directories of reproduce --shard I/N into the results of one run.")
final class MergeCommand implements Callable<Integer> {
    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "DIR", arity = "1..*", description = "The shards' --out directories, one per shard.")
    List<Path> dirs = new ArrayList<>();

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results",
            description = "Where the merged results, plots and reports go (default: ${DEFAULT-VALUE}).")
    Path out;

    // each shard's directory at its shard number - 1, set by shards()
    private Path[] shardDirs;

    @Override
    public Integer call() throws IOException {
        PrintWriter err = spec.commandLine().getErr();
        try {
            OutputPaths.directory("--out", out);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        ShardManifest[] byShard = shards();
        ShardManifest first = byShard[0];
        List<IndexEntry> index = new ArrayList<>();
        List<Map<String, Object>> allComparisons = new ArrayList<>();
        boolean verified = true;
        boolean complete = true;
        for (int k = 0; k < first.experiments().size(); k++) {
            ShardManifest.Entry e = first.experiments().get(k);
            ExperimentSpec declared = e.source().endsWith(".yaml") || e.source().endsWith(".yml")
                    ? SpecReader.read(Path.of(e.source())) : SpecReader.bundled(e.source());
            if (!e.runnable()) {
                index.add(ExperimentOutput.pending(out, declared));
                continue;
            }
            ExperimentResult result = merged(declared, first, byShard, k);
            List<Map<String, Object>> comparison = ExperimentOutput.comparison(declared, result);
            index.add(ExperimentOutput.write(out, declared, result, comparison));
            if (!comparison.isEmpty()) {
                err.println(e.id() + ": " + ExperimentOutput.tallyLine(declared, result, comparison));
                allComparisons.addAll(comparison);
            }
            verified &= org.pagefabric.experiment.ExpectedFailures.check(result.spec(), result.rows()).asExpected();
            complete &= result.complete();
        }
        IndexPage.write(out, index);
        if (allComparisons.size() > 0 && first.experiments().size() > 1) {
            err.println("in total, " + VerdictTally.of(allComparisons).line());
        }
        err.println("merge: " + byShard.length + " shards, " + first.experiments().size() + " experiments"
                + (complete ? "" : " (some shards stopped early: rows are missing)") + "; reports in "
                + out.resolve(IndexPage.FILE_NAME));
        err.flush();
        if (!verified) {
            err.println("merge: some rows did not come out as their spec expects (column 'verified')");
            return ExitCodes.FAILURE;
        }
        return complete ? ExitCodes.OK : ExitCodes.INCOMPLETE;
    }

    /** Each shard's manifest at its shard number - 1, after checking they are one whole sweep. */
    private ShardManifest[] shards() {
        ShardManifest first = ShardManifest.read(dirs.get(0));
        ShardManifest[] byShard = new ShardManifest[first.shards()];
        Path[] from = new Path[first.shards()];
        for (Path dir : dirs) {
            ShardManifest m = ShardManifest.read(dir);
            if (m.shards() != first.shards() || m.quick() != first.quick() || !m.overrides().equals(first.overrides())
                    || !sameExperiments(m, first)) {
                throw new IllegalArgumentException(dir + " is shard " + m.shard() + "/" + m.shards()
                        + " of another sweep than " + dirs.get(0) + " (experiments, --quick, --set and N must agree)");
            }
            if (!m.build().equals(ResultWriter.build())) {
                throw new IllegalArgumentException(dir + " was run by " + m.build().values()
                        + ", this merge is " + ResultWriter.build().values() + ": merge with the build the shards ran");
            }
            if (byShard[m.shard() - 1] != null) {
                throw new IllegalArgumentException("shard " + m.shard() + "/" + m.shards() + " given twice: "
                        + from[m.shard() - 1] + " and " + dir);
            }
            byShard[m.shard() - 1] = m;
            from[m.shard() - 1] = dir;
        }
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < byShard.length; i++) {
            if (byShard[i] == null) {
                missing.add((i + 1) + "/" + byShard.length);
            }
        }
        if (!missing.isEmpty()) {
            throw new IllegalArgumentException("shards missing: " + String.join(", ", missing)
                    + "; give every shard's directory");
        }
        shardDirs = from;
        return byShard;
    }

    private static boolean sameExperiments(ShardManifest a, ShardManifest b) {
        if (a.experiments().size() != b.experiments().size()) {
            return false;
        }
        for (int i = 0; i < a.experiments().size(); i++) {
            ShardManifest.Entry x = a.experiments().get(i);
            ShardManifest.Entry y = b.experiments().get(i);
            if (!x.id().equals(y.id()) || !x.source().equals(y.source()) || x.points() != y.points()) {
                return false;
            }
        }
        return true;
    }

    /** Experiment {@code k}'s rows from every shard, each at its plan index, as one run's result. */
    private ExperimentResult merged(ExperimentSpec declared, ShardManifest first, ShardManifest[] byShard, int k) {
        // the runner applies --quick and --set exactly as the shards' runners did, and checks the points
        ExperimentRunner runner = new ExperimentRunner(declared,
                new ExperimentRunner.Options(1, first.quick(), false, first.overrides()));
        int planned = runner.points().size();
        @SuppressWarnings("unchecked")
        Map<String, Object>[] rows = new Map[planned];
        boolean complete = true;
        for (int s = 0; s < byShard.length; s++) {
            ShardManifest.Entry e = byShard[s].experiments().get(k);
            complete &= e.complete();
            if (e.points() != planned) {
                throw new IllegalArgumentException(shardDirs[s] + ": " + e.id() + " has " + e.points()
                        + " points there but " + planned + " in this build's spec");
            }
            List<Map<String, Object>> shardRows = ShardManifest.rows(shardDirs[s], e.id());
            if (shardRows.size() != e.indices().size()) {
                throw new IllegalArgumentException(shardDirs[s].resolve(e.id()) + ": " + shardRows.size()
                        + " rows but " + ShardManifest.FILE_NAME + " lists " + e.indices().size());
            }
            for (int r = 0; r < shardRows.size(); r++) {
                int at = e.indices().get(r);
                if (at < 0 || at >= planned || rows[at] != null) {
                    throw new IllegalArgumentException(shardDirs[s] + ": " + e.id() + " run " + at
                            + " is outside the plan or in two shards");
                }
                rows[at] = shardRows.get(r);
            }
        }
        List<Map<String, Object>> inOrder = new ArrayList<>();
        for (Map<String, Object> r : rows) {
            if (r != null) {
                inOrder.add(new LinkedHashMap<>(r));
            } else {
                complete = false;
            }
        }
        return new ExperimentResult(runner.spec(), first.quick(), first.overrides(), planned, inOrder, complete);
    }
}
