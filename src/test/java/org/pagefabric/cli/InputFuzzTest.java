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
        Path caseDir = root.resolve("case");
        Path in = caseDir.resolve("in");
        Path out = caseDir.resolve("out");
        FuzzInputs inputs = new FuzzInputs(in, out, fifo);
        Map<String, String> sentinelBefore = listing(root.resolve("sentinel"));
        Path cwd = Path.of("").toAbsolutePath();
        Map<String, String> cwdBefore = topLevel(cwd);

        List<String> failures = new ArrayList<>();
        Map<String, Integer> outcomes = new TreeMap<>();
        // the slowest cases as {nanoseconds, seed}: where the time goes when the suite slows down
        List<long[]> slowest = new ArrayList<>();
        ExecutorService worker = worker();
        long start = System.nanoTime();
        for (long seed = FIRST_SEED; seed < FIRST_SEED + CASES; seed++) {
            delete(caseDir);
            Files.createDirectories(in.resolve(FuzzInputs.DIRECTORY));
            FuzzCase c = inputs.generate(seed);
            for (Map.Entry<String, byte[]> f : c.files().entrySet()) {
                Files.write(in.resolve(f.getKey()), f.getValue());
            }
            long caseStart = System.nanoTime();
            Future<CliTest.Result> run = worker.submit(() -> CliTest.run(c.args().toArray(String[]::new)));
            String problem;
            CliTest.Result r = null;
            try {
                r = run.get(CASE_TIMEOUT_S, TimeUnit.SECONDS);
                problem = problem(c, r);
            } catch (TimeoutException e) {
                run.cancel(true);
                worker.shutdownNow();
                worker = worker();
                problem = "no answer within " + CASE_TIMEOUT_S + " s (a hang or a run that is not tiny)";
            } catch (ExecutionException e) {
                problem = "escaped the command line: " + e.getCause();
            }
            problem = problem != null ? problem : writesOutside(root, caseDir, sentinelBefore, cwd, cwdBefore);
            slowest.add(new long[] {System.nanoTime() - caseStart, seed});
            slowest.sort(Comparator.comparingLong((long[] x) -> -x[0]));
            if (slowest.size() > 5) {
                slowest.remove(5);
            }
            outcomes.merge(c.kind() + (r == null ? " failed" : " exit " + r.code()), 1, Integer::sum);
            if (problem != null) {
                failures.add(c.describe() + "\n  -> " + problem
                        + (r == null ? "" : "\n  exit " + r.code() + ", stderr " + FuzzCase.quote(r.err())));
                // a write outside would be blamed on every later case too
                Files.createDirectories(root.resolve("sentinel"));
                sentinelBefore = listing(root.resolve("sentinel"));
                cwdBefore = topLevel(cwd);
                for (Path p : extra(root)) {
                    delete(p);
                }
            }
        }
        worker.shutdownNow();
        double seconds = (System.nanoTime() - start) / 1e9;
        System.out.printf("InputFuzzTest: %d cases from seed %d in %.1f s: %s; %d failed; slowest: %s%n", CASES,
                FIRST_SEED, seconds, outcomes, failures.size(), slowest.stream()
                        .map(x -> "seed " + x[1] + " " + x[0] / 1_000_000 + " ms").toList());
        assertTrue(failures.isEmpty(), failures.size() + " of " + CASES + " generated inputs failed; the first 25:\n"
                + String.join("\n", failures.subList(0, Math.min(25, failures.size()))));
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
        List<String> named = c.named().isEmpty()
                ? c.args().stream().filter(a -> a.strip().length() >= 2).map(String::strip).toList() : c.named();
        if (!c.named().isEmpty() || !line.contains("Missing")) {
            if (named.stream().noneMatch(line::contains)) {
                return "the message names neither " + (c.named().isEmpty() ? "an option nor a value given"
                        : String.join(" nor ", c.named()));
            }
        }
        return null;
    }

    /** A file or directory a case left outside its output directory, or {@code null}. */
    private static String writesOutside(Path root, Path caseDir, Map<String, String> sentinelBefore, Path cwd,
                                        Map<String, String> cwdBefore) throws IOException {
        List<Path> extra = extra(root);
        if (!extra.isEmpty()) {
            return "wrote outside --out: " + extra;
        }
        if (!listing(root.resolve("sentinel")).equals(sentinelBefore)) {
            return "changed the sentinel tree beside --out";
        }
        try (Stream<Path> s = Files.list(caseDir)) {
            List<String> names = s.map(p -> p.getFileName().toString()).filter(n -> !n.equals("in") && !n.equals("out"))
                    .toList();
            if (!names.isEmpty()) {
                return "wrote beside --out: " + names;
            }
        }
        if (!topLevel(cwd).equals(cwdBefore)) {
            return "wrote into the working directory " + cwd;
        }
        return null;
    }

    private static List<Path> extra(Path root) throws IOException {
        try (Stream<Path> s = Files.list(root)) {
            return s.filter(p -> !List.of("sentinel", "case", "fifo").contains(p.getFileName().toString())).toList();
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

    private static ExecutorService worker() {
        return Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "fuzz-case");
            t.setDaemon(true);
            return t;
        });
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
