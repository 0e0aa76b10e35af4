package org.pagefabric.record;

import java.io.BufferedWriter;
import java.io.FilterWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.pagefabric.experiment.WholeFile;

/**
 * Records a real MPI program: runs its command with the interposer preloaded into every rank,
 * then merges the ranks' logs into one trace. The trace is written to a temporary file beside
 * {@code out} and renamed into place only when the program succeeded and every rank finished, so
 * a trace at {@code out} is always whole.
 */
public final class MpiRecorder {
    /** Launchers of Open MPI, which pass environment variables to the ranks only when told with -x. */
    private static final Set<String> OPEN_MPI_LAUNCHERS = Set.of("mpirun", "mpiexec", "orterun");
    /** The nonblocking collectives the interposer refuses where the program calls one. */
    private static final Set<String> NONBLOCKING_COLLECTIVES = Set.of("MPI_Ibarrier", "MPI_Ibcast", "MPI_Ireduce",
            "MPI_Iallreduce", "MPI_Iscan", "MPI_Iexscan", "MPI_Ireduce_scatter", "MPI_Ireduce_scatter_block",
            "MPI_Iallgather", "MPI_Iallgatherv", "MPI_Igather", "MPI_Igatherv", "MPI_Iscatter", "MPI_Iscatterv",
            "MPI_Ialltoall", "MPI_Ialltoallv");
    private static final Set<String> DYNAMIC_PROCESSES = Set.of("MPI_Comm_spawn", "MPI_Comm_spawn_multiple",
            "MPI_Comm_connect", "MPI_Comm_accept", "MPI_Comm_join", "MPI_Intercomm_create");
    private static final Set<String> ATOMICS = Set.of("MPI_Fetch_and_op", "MPI_Compare_and_swap", "MPI_Get_accumulate",
            "MPI_Rget_accumulate");
    private static final Set<String> REQUEST_BASED = Set.of("MPI_Rput", "MPI_Rget", "MPI_Raccumulate");
    private static final Set<String> PSCW = Set.of("MPI_Win_post", "MPI_Win_start", "MPI_Win_complete", "MPI_Win_wait",
            "MPI_Win_test");
    /** What Open MPI's launcher says when it cannot start the program, and the line naming it. */
    private static final Pattern CANNOT_START = Pattern.compile("unable to find the specified executable|could not"
            + " access|execvp error");
    private static final Pattern EXECUTABLE = Pattern.compile("^\\s*Executable:\\s*(.+?)\\s*$");
    private static final Pattern EXECVP = Pattern.compile("execvp error on file (.+?) \\(");

    private MpiRecorder() {
    }

    /**
     * What a recording produced.
     *
     * @param ranks   ranks of the job
     * @param records records written
     * @param calls   MPI calls the interposer counted over all ranks
     */
    public record Result(int ranks, long records, long calls) {
    }

    /**
     * Runs {@code command} (a launcher such as {@code mpirun -n 4 ./app}, or the program itself) and
     * writes the trace to {@code out}. The program's own output goes to this process's.
     *
     * @throws RecordingRefused for a command that cannot run, an {@code out} that cannot be written,
     *                          a program that is not an MPI program or cannot be preloaded, one that
     *                          called what the replay cannot carry, or one that failed
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
        checkOut(out);
        Path lib = InterposerLibrary.build(cacheDir);
        Path logs;
        try {
            logs = Files.createTempDirectory("pagefabric-record-");
        } catch (IOException e) {
            throw new RecordingRefused("cannot make a directory for the ranks' logs: " + WholeFile.reason(e));
        }
        try {
            Run run = run(command, name, lib, logs);
            List<RankLog> ranks = ranks(logs, command, run);
            long records = write(ranks, String.join(" ", command), out);
            long calls = 0;
            for (RankLog r : ranks) {
                for (long c : r.tally().values()) {
                    calls += c;
                }
            }
            return new Result(ranks.size(), records, calls);
        } finally {
            delete(logs);
        }
    }

    /**
     * Refuses an {@code out} the trace could not be written to, before the program runs for
     * minutes towards it: a directory, or a place where no file can be made (the trace is written
     * beside it and renamed into place).
     */
    static void checkOut(Path out) throws RecordingRefused {
        Path abs = out.toAbsolutePath().normalize();
        if (Files.isDirectory(abs)) {
            throw new RecordingRefused("--out " + out + " is a directory; name the trace file to write");
        }
        Path dir = abs.getParent();
        try {
            Files.createDirectories(dir);
            Files.delete(Files.createTempFile(dir, "." + abs.getFileName() + ".", ".tmp"));
        } catch (IOException | UnsupportedOperationException e) {
            String why = e instanceof IOException io ? WholeFile.reason(io) : "not a file system that holds files";
            throw new RecordingRefused("--out " + out + ": cannot write a file in " + dir + " (" + why + "); the"
                    + " program was not run");
        }
    }

    /** How the command ended: its exit status, and the program the launcher said it could not start, if any. */
    private record Run(int status, boolean cannotStart, String missing) {
    }

    private static Run run(List<String> command, String name, Path lib, Path logs) throws RecordingRefused {
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
        pb.command(argv).redirectInput(ProcessBuilder.Redirect.INHERIT).redirectOutput(ProcessBuilder.Redirect.INHERIT);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new RecordingRefused("cannot start '" + command.getFirst() + "': " + WholeFile.reason(e));
        }
        ErrorTee tee = new ErrorTee(p.getErrorStream());
        Thread copier = Thread.ofPlatform().daemon().name("record-stderr").start(tee);
        try {
            int status = p.waitFor();
            // a process the launcher left behind may hold its standard error open: do not wait for it long
            copier.join(5000);
            return new Run(status, tee.cannotStart, tee.missing);
        } catch (InterruptedException e) {
            p.destroy();
            Thread.currentThread().interrupt();
            throw new RecordingRefused("interrupted; no trace written");
        }
    }

    /**
     * Copies the launcher's standard error to this process's as it comes, and notes whether it
     * said it could not start the program (Open MPI's launcher prints a banner naming it).
     */
    private static final class ErrorTee implements Runnable {
        private final InputStream in;
        private volatile boolean cannotStart;
        private volatile String missing;

        ErrorTee(InputStream in) {
            this.in = in;
        }

        @Override
        public void run() {
            byte[] buf = new byte[8192];
            StringBuilder line = new StringBuilder();
            try {
                int n;
                while ((n = in.read(buf)) > 0) {
                    System.err.write(buf, 0, n);
                    System.err.flush();
                    for (int i = 0; i < n; i++) {
                        if (buf[i] == '\n') {
                            scan(line.toString());
                            line.setLength(0);
                        } else if (line.length() < 4096) {
                            line.append((char) (buf[i] & 0xFF));
                        }
                    }
                }
                scan(line.toString());
            } catch (IOException e) {
                // the launcher is gone; what it said has been copied
            }
        }

        private void scan(String line) {
            if (CANNOT_START.matcher(line).find()) {
                cannotStart = true;
                Matcher m = EXECVP.matcher(line);
                if (m.find() && missing == null) {
                    missing = m.group(1);
                }
            }
            Matcher m = EXECUTABLE.matcher(line);
            if (cannotStart && missing == null && m.find()) {
                missing = m.group(1);
            }
        }
    }

    /** The logs of the job's ranks in rank order, or why there is no whole recording. */
    private static List<RankLog> ranks(Path logs, List<String> command, Run run) throws RecordingRefused {
        List<RankLog> all = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(logs, "pid-*.log")) {
            for (Path f : files) {
                all.add(RankLog.read(f));
            }
        } catch (IOException e) {
            throw new RecordingRefused("cannot read the ranks' logs: " + WholeFile.reason(e));
        } catch (RankLog.Damaged e) {
            throw new RecordingRefused("a rank's log is damaged (" + e.getMessage() + "); no trace written");
        }
        // a refused call aborts the job: it, not the launcher's status, is the reason
        RankLog refused = all.stream().filter(r -> r.refused() != null)
                .min(Comparator.comparingInt(RankLog::rank)).orElse(null);
        if (refused != null) {
            throw new RecordingRefused(refusal(refused.rank(), refused.refused()));
        }
        if (run.cannotStart()) {
            throw new RecordingRefused(notStarted(command.getFirst(), run.missing()));
        }
        int status = run.status();
        if (status != 0) {
            boolean launcher = OPEN_MPI_LAUNCHERS.contains(Path.of(command.getFirst()).getFileName().toString());
            // Java reports a process killed by signal s as status 128+s, as a shell does: a launcher
            // says so itself when a rank was killed, and exits with a status of its own
            throw new RecordingRefused("the program failed: '" + command.getFirst() + "' exited with status " + status
                    + (!launcher && status > 128 && status < 160 ? " (or was killed by signal " + (status - 128) + ")"
                    : "") + "; see its messages above; no trace written");
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
        return ranks;
    }

    /** Why a call the interposer refused cannot be replayed. */
    static String refusal(int rank, String call) {
        String why;
        if (call.equals("MPI_Init_thread")) {
            return "rank " + rank + " called MPI_Init_thread with MPI_THREAD_MULTIPLE: threads calling MPI at once,"
                    + " which the recorder cannot follow (it logs one sequence of calls per rank); no trace written";
        } else if (NONBLOCKING_COLLECTIVES.contains(call)) {
            why = "a nonblocking collective, which the replay cannot carry (it has only blocking collectives)";
        } else if (call.startsWith("MPI_File_")) {
            why = "MPI-IO, which the replay cannot carry (it replays no file I/O)";
        } else if (DYNAMIC_PROCESSES.contains(call)) {
            why = "dynamic processes, which the replay cannot carry (its job keeps the ranks it started with)";
        } else if (ATOMICS.contains(call)) {
            why = "an atomic one-sided operation, which the replay cannot carry (it has puts and gets only)";
        } else if (REQUEST_BASED.contains(call)) {
            why = "a request-based one-sided operation, which the replay cannot carry (its one-sided operations"
                    + " complete at a synchronisation)";
        } else if (call.equals("MPI_Win_create_dynamic")) {
            why = "a dynamic window, which the replay cannot carry (its memory is attached after it is made)";
        } else if (call.equals("MPI_Win_allocate_shared")) {
            why = "a shared-memory window, which the replay cannot carry (ranks load and store its memory directly)";
        } else if (PSCW.contains(call)) {
            why = "post-start-complete-wait synchronisation, which the replay cannot carry (it has fences, locks and"
                    + " flushes)";
        } else {
            why = "which the replay cannot carry";
        }
        return "rank " + rank + " called " + call + ", " + why + "; no trace written";
    }

    /** What the launcher could not start, as the user would fix it. */
    private static String notStarted(String launcher, String program) {
        if (program == null) {
            return "'" + launcher + "' could not start the program (not found or not executable); see its messages"
                    + " above; no trace written";
        }
        Path p = Path.of(program);
        if (Files.isRegularFile(p) && !Files.isExecutable(p)) {
            return "the program '" + program + "' is not executable (chmod +x " + program + "); no trace written";
        }
        String local = !program.contains("/") && Files.isRegularFile(Path.of(program)) ? " (did you mean ./" + program
                + "?)" : "";
        return "the program '" + program + "' was not found: '" + launcher + "' could not start it" + local
                + "; no trace written";
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

    /** An error of the trace's file, not of a log read to make it. */
    private static final class Unwritable extends IOException {
        private static final long serialVersionUID = 1L;

        Unwritable(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }

    /**
     * Writes the trace beside {@code out} as the logs are merged, and renames it into place when
     * whole: a trace at {@code out} is never a part of one.
     */
    private static long write(List<RankLog> ranks, String source, Path out) throws RecordingRefused {
        Path abs = out.toAbsolutePath().normalize();
        Path tmp = null;
        try {
            tmp = Files.createTempFile(abs.getParent(), "." + abs.getFileName() + ".", ".tmp");
            long records;
            try (Writer w = new FilterWriter(new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(tmp),
                    StandardCharsets.UTF_8), 1 << 16)) {
                @Override
                public void write(int c) throws IOException {
                    try {
                        super.write(c);
                    } catch (IOException e) {
                        throw new Unwritable(e);
                    }
                }

                @Override
                public void write(String s, int off, int len) throws IOException {
                    try {
                        super.write(s, off, len);
                    } catch (IOException e) {
                        throw new Unwritable(e);
                    }
                }

                @Override
                public void write(char[] c, int off, int len) throws IOException {
                    try {
                        super.write(c, off, len);
                    } catch (IOException e) {
                        throw new Unwritable(e);
                    }
                }

                @Override
                public void flush() throws IOException {
                    try {
                        super.flush();
                    } catch (IOException e) {
                        throw new Unwritable(e);
                    }
                }

                @Override
                public void close() throws IOException {
                    try {
                        super.close();
                    } catch (IOException e) {
                        throw new Unwritable(e);
                    }
                }
            }) {
                records = TraceAssembly.write(ranks, source, w);
            }
            try {
                place(tmp, abs);
            } catch (IOException e) {
                throw new Unwritable(e);
            }
            tmp = null;
            return records;
        } catch (Unwritable e) {
            throw new RecordingRefused("--out " + out + ": cannot write the trace: " + WholeFile.reason(
                    (IOException) e.getCause()));
        } catch (IOException e) {
            throw new RecordingRefused(tmp == null ? "--out " + out + ": cannot write the trace: " + WholeFile.reason(e)
                    : "cannot read the ranks' logs: " + WholeFile.reason(e));
        } catch (RankLog.Damaged e) {
            throw new RecordingRefused("a rank's log is damaged (" + e.getMessage() + "); no trace written");
        } finally {
            if (tmp != null) {
                try {
                    Files.deleteIfExists(tmp);
                } catch (IOException e) {
                    // a hidden .tmp beside --out is harmless
                }
            }
        }
    }

    /** Gives the finished trace an ordinary file's permissions (a temporary file is private) and its name. */
    private static void place(Path tmp, Path out) throws IOException {
        try {
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-r--r--"));
        } catch (UnsupportedOperationException e) {
            // not a POSIX file system: its default permissions stand
        }
        try {
            Files.move(tmp, out, StandardCopyOption.ATOMIC_MOVE);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING);
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
