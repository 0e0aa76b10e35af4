package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Thousands of generated hostile inputs (argument lists, specs and profiles mutated from the
 * bundled ones: {@link FuzzInputs}) through the in-process command line. Each must either run
 * (exit 0) or be refused with exit 2 in one line naming the file or option (plus the
 * {@code --help} hint), with no exception escaping, no stack trace or internal class name, no
 * hang, and nothing written outside the case's {@code --out} directory. The seeds are fixed:
 * a failure prints the seed, command line and files that reproduce it
 * ({@code -Dpagefabric.fuzz.seed=SEED -Dpagefabric.fuzz.cases=1} runs that case alone).
 */
class InputFuzzTest {
    /** Cases per run; CI runs the default, a search for new failures runs more. */
    private static final int CASES = Integer.getInteger("pagefabric.fuzz.cases", 10_000);
    private static final long FIRST_SEED = Long.getLong("pagefabric.fuzz.seed", 1);
    /** Far above any tiny case, so that only a hang or a runaway run reaches it on a loaded machine. */
    private static final long CASE_TIMEOUT_S = 30;
    private static final Pattern HINT = Pattern.compile("try 'pagefabric( [a-z]+)* --help'");
    /** What shows that an internal error, not a message for the user, reached the terminal. */
    private static final List<String> INTERNALS = List.of("\tat ", "Exception", "Error", "java.lang.", "java.nio.",
            "java.util.", "org.yaml.", "com.fasterxml.", "org.pagefabric.");

    @Test
    void hostileInputIsRunOrRefusedInOneLineAndWritesOnlyUnderOut(@TempDir Path root) throws Exception {
        Path sentinel = Files.createDirectories(root.resolve("sentinel").resolve("sub"));
        Files.writeString(sentinel.resolve("b.txt"), "keep");
        Files.writeString(root.resolve("sentinel").resolve("a.txt"), "keep");
        Path fifo = fifo(root.resolve("fifo"));
        Watch watch = new Watch(root, Path.of("").toAbsolutePath());
        // Cases run in lanes, one per processor, each in its own directory: a case is mostly the
        // construction of the command line, which one thread cannot make faster.
        int lanes = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors()));
        AtomicLong next = new AtomicLong(FIRST_SEED);
        ReadWriteLock alone = new ReentrantReadWriteLock();
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        Map<String, Integer> outcomes = new java.util.concurrent.ConcurrentSkipListMap<>();
        long start = System.nanoTime();
        ExecutorService laneThreads = Executors.newFixedThreadPool(lanes, daemon("fuzz-lane"));
        List<Future<?>> running = new ArrayList<>();
        for (int k = 0; k < lanes; k++) {
            Path laneDir = root.resolve("lane-" + k);
            running.add(laneThreads.submit(() -> {
                lane(laneDir, fifo, next, alone, watch, failures, outcomes);
                return null;
            }));
        }
        for (Future<?> f : running) {
            f.get();
        }
        laneThreads.shutdownNow();
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("InputFuzzTest: %d cases from seed %d in %.1f s on %d lanes: %s; %d failed%n", CASES,
                FIRST_SEED, seconds, lanes, outcomes, failures.size());
        List<String> shown = failures.stream().sorted().limit(25).toList();
        assertTrue(failures.isEmpty(), failures.size() + " of " + CASES + " generated inputs failed; the first "
                + shown.size() + ":\n" + String.join("\n", shown));
    }

    /** Runs cases until the seeds are used up, each in {@code laneDir}, recording what went wrong. */
    private static void lane(Path laneDir, Path fifo, AtomicLong next, ReadWriteLock alone, Watch watch,
                             List<String> failures, Map<String, Integer> outcomes) throws Exception {
        Path in = laneDir.resolve("in");
        Path out = laneDir.resolve("out");
        FuzzInputs inputs = new FuzzInputs(in, out, fifo);
        ExecutorService worker = Executors.newSingleThreadExecutor(daemon("fuzz-case"));
        for (long seed; (seed = next.getAndIncrement()) < FIRST_SEED + CASES; ) {
            delete(laneDir);
            Files.createDirectories(in.resolve(FuzzInputs.DIRECTORY));
            FuzzCase c = inputs.generate(seed);
            for (Map.Entry<String, byte[]> f : c.files().entrySet()) {
                Files.write(in.resolve(f.getKey()), f.getValue());
            }
            // a trace recording watches every job the JVM builds, so it runs with no other case beside it
            java.util.concurrent.locks.Lock lock = c.args().contains("--record-trace") ? alone.writeLock()
                    : alone.readLock();
            lock.lock();
            String problem;
            CliTest.Result r = null;
            try {
                Future<CliTest.Result> run = worker.submit(() -> CliTest.run(c.args().toArray(String[]::new)));
                try {
                    r = run.get(CASE_TIMEOUT_S, TimeUnit.SECONDS);
                    problem = problem(c, r);
                } catch (TimeoutException e) {
                    run.cancel(true);
                    worker.shutdownNow();
                    worker = Executors.newSingleThreadExecutor(daemon("fuzz-case"));
                    problem = "no answer within " + CASE_TIMEOUT_S + " s (a hang or a run that is not tiny)";
                } catch (ExecutionException e) {
                    problem = "escaped the command line: " + e.getCause();
                }
                if (problem == null) {
                    problem = besideOut(laneDir);
                }
                if (problem == null) {
                    problem = watch.outside();
                }
            } finally {
                lock.unlock();
            }
            outcomes.merge(c.kind() + (r == null ? " failed" : " exit " + r.code()), 1, Integer::sum);
            if (problem != null) {
                failures.add(c.describe() + "\n  -> " + problem
                        + (r == null ? "" : "\n  exit " + r.code() + ", stderr " + FuzzCase.quote(r.err())));
            }
        }
        worker.shutdownNow();
    }

    /** What is wrong with how the command line answered {@code c}, or {@code null}. */
    static String problem(FuzzCase c, CliTest.Result r) {
        List<String> err = r.err().lines().filter(l -> !l.isBlank()).toList();
        for (String internal : INTERNALS) {
            if (r.err().contains(internal)) {
                return "stderr shows an internal detail (" + internal.strip() + ")";
            }
        }
        if (r.code() == 0) {
            return null;
        }
        if (r.code() != 2) {
            return "exit " + r.code() + ": bad input is exit 2, a successful run exit 0";
        }
        if (err.isEmpty()) {
            return "exit 2 without a message";
        }
        if (err.size() > 2 || err.size() == 2 && !HINT.matcher(err.get(1)).matches()) {
            return "exit 2 with " + err.size() + " lines: one line and the --help hint at most";
        }
        String line = err.get(0);
        if (!c.named().isEmpty()) {
            return c.named().stream().anyMatch(line::contains) ? null
                    : "the message names neither " + String.join(" nor ", c.named());
        }
        // an argument list's refusal names an option (picocli names -V as --version) or what was given
        boolean names = line.contains("--") || line.contains("Missing") || c.args().stream().anyMatch(a ->
                a.strip().length() >= 2 && line.contains(a.strip()) || line.contains("'" + shown(a) + "'")
                        || a.startsWith("@"));
        return names ? null : "the message names neither an option nor a value given";
    }

    /** {@code arg} as a one-line message shows it: control and format characters as '?'. */
    private static String shown(String arg) {
        return arg.replaceAll("\\R", " ").replaceAll("[\\p{Cntrl}\\p{Cf}]", "?");
    }

    /** What a case left in its lane beside its input and output directories, or {@code null}. */
    private static String besideOut(Path laneDir) throws IOException {
        try (Stream<Path> s = Files.list(laneDir)) {
            List<String> names = s.map(p -> p.getFileName().toString()).filter(n -> !n.equals("in") && !n.equals("out"))
                    .toList();
            return names.isEmpty() ? null : "wrote beside --out: " + names;
        }
    }

    /**
     * The places no case may write: the test's root beside the lanes, a sentinel tree there, and
     * the working directory (where a default {@code results/} would go). A write found there is
     * reported by the case that finds it (a lane beside it may have made it) and then forgotten,
     * so that it is reported once.
     */
    private static final class Watch {
        private final Path root;
        private final Path cwd;
        private Map<String, String> sentinel;
        private Map<String, String> cwdEntries;

        Watch(Path root, Path cwd) throws IOException {
            this.root = root;
            this.cwd = cwd;
            this.sentinel = listing(root.resolve("sentinel"));
            this.cwdEntries = topLevel(cwd);
        }

        synchronized String outside() throws IOException {
            List<String> extra;
            try (Stream<Path> s = Files.list(root)) {
                extra = s.map(p -> p.getFileName().toString())
                        .filter(n -> !n.equals("sentinel") && !n.equals("fifo") && !n.startsWith("lane-")).toList();
            }
            String problem = null;
            if (!extra.isEmpty()) {
                problem = "wrote outside --out: " + extra;
                extra.forEach(n -> delete(root.resolve(n)));
            }
            Files.createDirectories(root.resolve("sentinel"));
            Map<String, String> nowSentinel = listing(root.resolve("sentinel"));
            if (problem == null && !nowSentinel.equals(sentinel)) {
                problem = "changed the sentinel tree beside --out";
            }
            sentinel = nowSentinel;
            Map<String, String> nowCwd = topLevel(cwd);
            if (problem == null && !nowCwd.equals(cwdEntries)) {
                problem = "wrote into the working directory " + cwd;
            }
            cwdEntries = nowCwd;
            return problem;
        }
    }

    /** Every file under {@code dir} with its size and modification time. */
    private static Map<String, String> listing(Path dir) throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.toList()) {
                m.put(dir.relativize(p).toString(), Files.size(p) + "@" + Files.getLastModifiedTime(p));
            }
        }
        return m;
    }

    /** The working directory's entries and their modification times: a default {@code results/} would show. */
    private static Map<String, String> topLevel(Path dir) throws IOException {
        Map<String, String> m = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                m.put(p.getFileName().toString(), Files.isDirectory(p) ? "dir" : Files.getLastModifiedTime(p).toString());
            }
        }
        return m;
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    /** A named pipe (reading one blocks until a writer comes), or {@code null} where mkfifo is missing. */
    private static Path fifo(Path p) {
        try {
            Process mk = new ProcessBuilder("mkfifo", p.toString()).redirectErrorStream(true).start();
            return mk.waitFor() == 0 && Files.exists(p) ? p : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private static void delete(Path p) {
        if (!Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            for (Path f : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
