package org.pagefabric.record;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.pagefabric.experiment.WholeFile;
import org.pagefabric.experiment.WriteFailedException;
import org.pagefabric.workload.trace.TraceWriter;

/**
 * Records a real MPI program: runs its command with the interposer preloaded into every rank,
 * then merges the ranks' logs into one trace. The trace is written to a temporary file beside
 * {@code out} and renamed into place only when the program succeeded and every rank finished, so
 * a trace at {@code out} is always whole.
 */
public final class MpiRecorder {
    /** Launchers of Open MPI, which pass environment variables to the ranks only when told with -x. */
    private static final Set<String> OPEN_MPI_LAUNCHERS = Set.of("mpirun", "mpiexec", "orterun");
    /** The nonblocking collectives the interposer counts so that a recording of a program using one is refused. */
    private static final Set<String> NONBLOCKING_COLLECTIVES = Set.of("MPI_Ibarrier", "MPI_Ibcast", "MPI_Ireduce",
            "MPI_Iallreduce", "MPI_Iscan", "MPI_Iexscan", "MPI_Ireduce_scatter", "MPI_Ireduce_scatter_block",
            "MPI_Iallgather", "MPI_Iallgatherv", "MPI_Igather", "MPI_Igatherv", "MPI_Iscatter", "MPI_Iscatterv",
            "MPI_Ialltoall", "MPI_Ialltoallv");

    private MpiRecorder() {
    }

    /**
     * What a recording produced.
     *
     * @param ranks   ranks of the job
     * @param records records written
     * @param calls   MPI calls the interposer counted over all ranks
     */
    public record Result(int ranks, int records, long calls) {
    }

    /**
     * Runs {@code command} (a launcher such as {@code mpirun -n 4 ./app}, or the program itself) and
     * writes the trace to {@code out}. The program's own output goes to this process's.
     *
     * @throws RecordingRefused for a command that cannot run, a program that is not an MPI program
     *                          or cannot be preloaded, or one that failed
     */
    public static Result record(List<String> command, Path out, Path cacheDir) throws RecordingRefused {
        if (command.isEmpty()) {
            throw new RecordingRefused("give the program to record after --, e.g. -- mpirun -n 4 ./app");
        }
        String launcher = command.getFirst();
        String name = Path.of(launcher).getFileName().toString();
        if (Executables.find(launcher) == null) {
            throw new RecordingRefused(OPEN_MPI_LAUNCHERS.contains(name)
                    ? "'" + launcher + "' is not on the PATH; install Open MPI (Debian: apt-get install openmpi-bin)"
                    : "'" + launcher + "' is not a program on the PATH or an executable file");
        }
        Path lib = InterposerLibrary.build(cacheDir);
        Path logs;
        try {
            logs = Files.createTempDirectory("pagefabric-record-");
        } catch (IOException e) {
            throw new RecordingRefused("cannot make a directory for the ranks' logs: " + e.getMessage());
        }
        try {
            int status = run(command, name, lib, logs);
            List<RankLog> ranks = ranks(logs, command, status);
            TraceAssembly.Assembled trace = TraceAssembly.assemble(ranks, String.join(" ", command));
            write(trace, out);
            long calls = 0;
            for (RankLog r : ranks) {
                for (long c : r.tally().values()) {
                    calls += c;
                }
            }
            return new Result(ranks.size(), trace.records().size(), calls);
        } finally {
            delete(logs);
        }
    }

    private static int run(List<String> command, String name, Path lib, Path logs) throws RecordingRefused {
        List<String> argv = new ArrayList<>();
        argv.add(command.getFirst());
        ProcessBuilder pb = new ProcessBuilder(argv);
        Map<String, String> env = pb.environment();
        if (OPEN_MPI_LAUNCHERS.contains(name)) {
            // the launcher itself is not recorded; its ranks are
            argv.addAll(List.of("-x", "LD_PRELOAD=" + lib, "-x", "PAGEFABRIC_RECORD_DIR=" + logs));
            // Open MPI refuses root and more ranks than cores unless told; a recording on a small
            // machine or in a container needs both, and neither changes what the program does
            env.put("OMPI_ALLOW_RUN_AS_ROOT", "1");
            env.put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
            env.putIfAbsent("OMPI_MCA_rmaps_base_oversubscribe", "1");
        } else {
            env.put("LD_PRELOAD", lib.toString());
            env.put("PAGEFABRIC_RECORD_DIR", logs.toString());
        }
        argv.addAll(command.subList(1, command.size()));
        pb.command(argv).inheritIO();
        try {
            return pb.start().waitFor();
        } catch (IOException e) {
            throw new RecordingRefused("cannot start '" + command.getFirst() + "': " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RecordingRefused("interrupted; no trace written");
        }
    }

    /** The logs of the job's ranks in rank order, or why there is no whole recording. */
    private static List<RankLog> ranks(Path logs, List<String> command, int status) throws RecordingRefused {
        List<RankLog> all = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(logs, "pid-*.log")) {
            for (Path f : files) {
                all.add(RankLog.read(f));
            }
        } catch (IOException e) {
            throw new RecordingRefused("cannot read the ranks' logs: " + e.getMessage());
        }
        if (status != 0) {
            throw new RecordingRefused("the program failed: '" + command.getFirst() + "' exited with status " + status
                    + (status > 128 ? " (signal " + (status - 128) + ")" : "") + "; see its messages above; no trace"
                    + " written");
        }
        if (all.isEmpty()) {
            String stat = staticProgram(command);
            throw new RecordingRefused(stat != null ? stat + " is statically linked: the recorder library cannot be"
                    + " preloaded into it; link it dynamically (the default of mpicc)"
                    : "no process of the program loaded the recorder library (a statically linked program, or a"
                    + " launcher that does not pass LD_PRELOAD to its processes)");
        }
        List<RankLog> ranks = new ArrayList<>(all.stream().filter(r -> r.rank() >= 0).toList());
        if (ranks.isEmpty()) {
            throw new RecordingRefused("the program never called MPI_Init: it is not an MPI program (or not one built"
                    + " against this machine's Open MPI)");
        }
        ranks.sort(Comparator.comparingInt(RankLog::rank));
        int size = ranks.getFirst().size();
        for (int r = 0; r < size; r++) {
            if (r >= ranks.size() || ranks.get(r).rank() != r) {
                throw new RecordingRefused("rank " + r + " of " + size + " left no log; no trace written");
            }
        }
        if (ranks.size() != size) {
            throw new RecordingRefused("the logs name " + ranks.size() + " ranks of a job of " + size
                    + " (two jobs in one command?); no trace written");
        }
        for (RankLog r : ranks) {
            if (!r.finished()) {
                throw new RecordingRefused("rank " + r.rank() + " did not reach MPI_Finalize (it crashed or was"
                        + " killed); no trace written");
            }
        }
        for (RankLog r : ranks) {
            for (String call : r.tally().keySet()) {
                if (NONBLOCKING_COLLECTIVES.contains(call)) {
                    throw new RecordingRefused("rank " + r.rank() + " called " + call + ", a nonblocking collective,"
                            + " which the replay cannot carry (it has only blocking collectives); no trace written");
                }
            }
        }
        return ranks;
    }

    /** The first argument that names a statically linked program, or {@code null}. */
    private static String staticProgram(List<String> command) {
        for (String arg : command) {
            if (arg.startsWith("-")) {
                continue;
            }
            String p = Executables.find(arg);
            if (p != null && Executables.isStaticElf(Path.of(p))) {
                return arg;
            }
        }
        return null;
    }

    private static void write(TraceAssembly.Assembled trace, Path out) throws RecordingRefused {
        StringWriter text = new StringWriter();
        try {
            TraceWriter.write(text, trace.header(), trace.records());
            WholeFile.write(out, text.toString());
        } catch (IOException | WriteFailedException e) {
            throw new RecordingRefused("--out " + out + ": cannot write the trace: " + e.getMessage());
        }
    }

    private static void delete(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            // a log left in the temporary directory is the system's to clean
        }
    }
}
