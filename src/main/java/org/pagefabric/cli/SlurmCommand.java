package org.pagefabric.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Pattern;
import org.pagefabric.experiment.ExperimentRunner;
import org.pagefabric.experiment.ExperimentSpec;
import org.pagefabric.experiment.SpecReader;
import org.pagefabric.report.IndexPage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine;

/**
 * {@code pagefabric slurm}: a sweep as a Slurm job array of {@code reproduce --shard I/N}
 * tasks and a merge job after it (see {@link SlurmScripts}). Without {@code --submit} it writes
 * the scripts and prints the two {@code sbatch} commands; with it, it submits both. The targets,
 * {@code --set} values and Slurm options are checked here, so that a typo fails at once rather
 * than in N queued jobs.
 */
@Command(name = "slurm", mixinStandardHelpOptions = true,
        description = "Run a sweep on a Slurm cluster: write (or --submit) a job array of N shards and a merge job after it.")
final class SlurmCommand implements Callable<Integer> {
    /** Slurm's time limit forms: M, M:S, H:M:S, D-H, D-H:M, D-H:M:S, or no limit. */
    private static final Pattern TIME = Pattern.compile("\\d+(:\\d+){0,2}|\\d+-\\d+(:\\d+){0,2}|(?i)infinite|unlimited");
    /** Slurm's memory sizes: a number of megabytes, or with a K, M, G or T suffix. */
    private static final Pattern MEMORY = Pattern.compile("\\d+[KMGTkmgt]?");
    /** Partition names, or a comma-separated list of them. */
    private static final Pattern PARTITION = Pattern.compile("[A-Za-z0-9_.-]+(,[A-Za-z0-9_.-]+)*");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "ID|SEED|FILE", arity = "0..*",
            description = "What reproduce runs: experiment ids, seeds (part, odp, aa, omx, firehose, all: the default) or spec files.")
    List<String> targets = new ArrayList<>();

    @Option(names = "--shards", paramLabel = "N", required = true,
            description = "How many shards, one array task each (Slurm's MaxArraySize bounds it, 1000 by default).")
    int shards;

    @Option(names = "--partition", paramLabel = "P", description = "The partition both jobs run in (default: the cluster's).")
    String partition;

    @Option(names = "--time", paramLabel = "T",
            description = "Time limit of each job, as Slurm writes it: minutes, H:M:S or D-H:M:S.")
    String time;

    @Option(names = "--mem", paramLabel = "M", description = "Memory of each job, e.g. 4G (Slurm's --mem).")
    String mem;

    @Option(names = "--cpus-per-task", paramLabel = "C",
            description = "Cores per array task; also its --threads unless --threads is given.")
    Integer cpusPerTask;

    @Option(names = "--threads", paramLabel = "T", description = "Worker threads of each task, 1 to the larger of 1024"
            + " and 64 per processor; results do not depend on it.")
    Integer threads;

    @CommandLine.Mixin
    GridOverrides grid;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "results",
            description = "Results, on a file system every node sees: the report, shards/, slurm/ (scripts), logs/"
                    + " (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--submit", description = "Submit both jobs with sbatch and print their ids.")
    boolean submit;

    /** The launcher the tasks call; tests point it elsewhere. */
    Path launcher;
    /** Where {@code sbatch} is looked for and what it runs with; tests give their own {@code PATH}. */
    Map<String, String> environment = System.getenv();

    @Override
    public Integer call() throws IOException {
        SlurmScripts scripts = scripts();
        Sbatch sbatch = submit ? Sbatch.onPath(environment) : null;
        // the output last: a check creates the directory, and a refused command leaves none
        try {
            OutputPaths.directory("--out", out);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        Path shardsScript = write(scripts.scriptDir().resolve(SlurmScripts.SHARDS_FILE), scripts.shardsScript());
        Path mergeScript = write(scripts.scriptDir().resolve(SlurmScripts.MERGE_FILE), scripts.mergeScript());
        Files.createDirectories(scripts.logDir());
        Files.createDirectories(scripts.out().resolve("shards"));
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path report = scripts.out().resolve(IndexPage.FILE_NAME);
        if (sbatch == null) {
            err.println("slurm: wrote " + shardsScript + " (" + shards + " array tasks) and " + mergeScript
                    + "; submit them with:");
            err.flush();
            o.println("array=$(sbatch --parsable " + ShellWords.quote(shardsScript.toString()) + ")");
            o.println("sbatch --dependency=afterany:\"${array%%;*}\" " + ShellWords.quote(mergeScript.toString()));
            o.flush();
            return ExitCodes.OK;
        }
        String array = sbatch.submit(List.of(), shardsScript);
        String merge;
        try {
            merge = sbatch.submit(List.of("--dependency=afterany:" + array), mergeScript);
        } catch (IllegalStateException e) {
            throw new IllegalStateException(e.getMessage() + "; the shards are job " + array
                    + ": submit the merge after them with sbatch --dependency=afterany:" + array + " "
                    + ShellWords.quote(mergeScript.toString()), e);
        }
        o.println("slurm: shards: job " + array + " (array tasks 1-" + shards + "), logs in " + scripts.logDir());
        o.println("slurm: merge: job " + merge + ", after every shard has ended");
        o.println("slurm: the report will appear in " + report);
        o.flush();
        return ExitCodes.OK;
    }

    /** The scripts the options describe, every option checked. */
    private SlurmScripts scripts() {
        if (shards < 1) {
            throw new IllegalArgumentException("--shards " + shards + ": give at least 1 shard");
        }
        if (time != null && !TIME.matcher(time).matches()) {
            throw new IllegalArgumentException("--time '" + time + "' is not a Slurm time limit; write minutes (90),"
                    + " H:M:S (1:30:00), D-H:M:S (2-00:00:00) or UNLIMITED");
        }
        if (mem != null && !MEMORY.matcher(mem).matches()) {
            throw new IllegalArgumentException("--mem '" + mem + "' is not a Slurm memory size; write megabytes"
                    + " (4000) or a number with K, M, G or T (4G)");
        }
        if (partition != null && !PARTITION.matcher(partition).matches()) {
            throw new IllegalArgumentException("--partition '" + partition + "' is not a partition name (letters,"
                    + " digits, '_', '.', '-'; several separated by commas)");
        }
        if (cpusPerTask != null && cpusPerTask < 1) {
            throw new IllegalArgumentException("--cpus-per-task " + cpusPerTask + ": give at least 1");
        }
        // refused here rather than in every task of the array (which checks it again on its node)
        WorkerThreads.count(threads);
        Path dir = out.toAbsolutePath().normalize();
        if (dir.toString().chars().anyMatch(Character::isISOControl)) {
            // the log paths go into #SBATCH lines, and a line break would end one
            throw new IllegalArgumentException("--out '" + dir.toString().replaceAll("\\p{Cntrl}", "?")
                    + "' holds a control character; Slurm's #SBATCH lines cannot carry it");
        }
        List<String> resolved = checkedTargets();
        List<String> resources = new ArrayList<>();
        if (partition != null) {
            resources.add("--partition=" + partition);
        }
        if (time != null) {
            resources.add("--time=" + time);
        }
        if (mem != null) {
            resources.add("--mem=" + mem);
        }
        Integer taskThreads = threads != null ? threads : cpusPerTask;
        return new SlurmScripts(launcher(), dir, resolved, grid.quick, grid.sets, taskThreads, shards, resources, cpusPerTask);
    }

    /**
     * The targets as the tasks get them (spec files made absolute: a task may start elsewhere),
     * after reading every spec and applying {@code --quick} and {@code --set} as the tasks will.
     */
    private List<String> checkedTargets() {
        Map<String, String> overrides = RunCommand.parseSets(grid.sets);
        List<String> ids = SpecReader.bundledIds();
        List<String> resolved = new ArrayList<>();
        List<ExperimentSpec> specs = new ArrayList<>();
        for (String t : targets.isEmpty() ? List.of("all") : targets) {
            if (t.equals("all")) {
                ids.forEach(id -> specs.add(SpecReader.bundled(id)));
                resolved.add(t);
            } else if (ReproduceCommand.SEEDS.containsKey(t)) {
                ids.stream().filter(id -> id.startsWith(ReproduceCommand.SEEDS.get(t)))
                        .forEach(id -> specs.add(SpecReader.bundled(id)));
                resolved.add(t);
            } else if (ids.contains(t)) {
                specs.add(SpecReader.bundled(t));
                resolved.add(t);
            } else if (t.endsWith(".yaml") || t.endsWith(".yml")) {
                Path file = Path.of(t).toAbsolutePath().normalize();
                specs.add(SpecReader.read(file));
                resolved.add(file.toString());
            } else {
                throw new IllegalArgumentException("'" + t + "' is not an experiment id, a seed or a spec file; seeds: "
                        + String.join(", ", ReproduceCommand.SEEDS.keySet()) + ", all; ids: " + String.join(", ", ids));
            }
        }
        for (ExperimentSpec s : specs) {
            if (s.runnable()) {
                // applies --quick and --set, refusing an unknown key in one line
                new ExperimentRunner(s, new ExperimentRunner.Options(1, grid.quick, false, overrides));
            }
        }
        return resolved;
    }

    /** The {@code pagefabric} launcher of the checkout this command runs from. */
    private Path launcher() {
        if (launcher != null) {
            return launcher;
        }
        Path here;
        try {
            // target/pagefabric.jar, or target/classes when run from the build
            here = Path.of(SlurmCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | SecurityException | NullPointerException e) {
            throw new IllegalStateException("cannot tell where PageFabric runs from: " + e);
        }
        Path script = here.toAbsolutePath().getParent().getParent().resolve("pagefabric");
        if (!Files.isRegularFile(script)) {
            throw new IllegalStateException("no pagefabric launcher at " + script
                    + "; run this command through the launcher of a PageFabric checkout");
        }
        return script;
    }

    private static Path write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        org.pagefabric.experiment.WholeFile.write(file, text);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }
}
