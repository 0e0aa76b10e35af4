package org.pagefabric.record.gen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.record.MpiRecorder;
import org.pagefabric.record.RecordingRefused;
import org.pagefabric.reg.PolicyProvider;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.workload.PointRun;
import org.pagefabric.sim.Simulator;
import org.pagefabric.workload.trace.Trace;
import org.pagefabric.workload.trace.TraceWorkload;

/**
 * The claim that any MPI program records and replays, tested on random ones: for each seed,
 * {@link MpiProgramGenerator} writes a correct C MPI program, which is compiled with mpicc and run
 * natively (where it checks every byte it receives), then recorded, then replayed under every
 * policy. The property: a program that runs natively either records and then replays verified
 * under every policy that can run it, performing exactly the MPI calls it made
 * ({@code mpi_calls} equals the recorded tally, {@code verified=true}, {@code corrupted=0}), or
 * is refused at record time in one line (what {@code pagefabric record} exits 2 with). A policy may
 * decline for a reason of its own (a {@link PolicyRefusal}, as {@code compare} lists "cannot
 * run"); a deadlock, a failed transfer or any other error is a failure.
 *
 * <p>System properties: {@code pf.gen.first} (1) and {@code pf.gen.count} (50) the seeds;
 * {@code pf.gen.features} a feature mask ({@code all}; e.g. {@code p2p,coll} or
 * {@code all,-probe}); {@code pf.gen.phases} the most top-level phases (5); {@code pf.gen.out}
 * where sources, logs and {@code summary.txt} go ({@code target/gen-mpi}); {@code pf.gen.examples}
 * where the smallest program of each failure category is copied ({@code <out>/examples});
 * {@code pf.gen.policies} a comma list (every policy); {@code pf.gen.profile} ({@code default});
 * {@code pf.gen.nativeOnly} to check only that the generated programs compile and run correctly;
 * {@code pf.gen.alwaysNative} to run each natively before recording it (by default only a program
 * whose recording fails is run natively, to tell the generator's failure from the recorder's).
 * Skipped where mpicc or mpirun is missing.
 */
class RandomMpiProgramsTest {
    private static final long NATIVE_TIMEOUT_S = 60;
    private static final long RECORD_TIMEOUT_S = 120;
    private static final long REPLAY_TIMEOUT_S = Long.getLong("pf.gen.replayTimeout", 60);
    /** Simulated time a replay runs between looks at the wall clock: 1 ms. */
    private static final long REPLAY_SLICE_PS = 1_000_000_000L;

    /** One seed's result: passed, refused (acceptable), or the failure categories it showed. */
    record Outcome(long seed, int ranks, int phases, int sourceChars, String verdict, List<String> failures,
                   String detail) {
    }

    @Test
    void everyGeneratedProgramRecordsAndReplaysOrIsRefused() throws Exception {
        assumeTrue(onPath("mpicc") && onPath("mpirun"),
                "Open MPI is not installed (Debian: apt-get install openmpi-bin libopenmpi-dev); .ci/run installs it");
        long first = Long.getLong("pf.gen.first", 1);
        long count = Long.getLong("pf.gen.count", 50);
        // several masks separated by ';' run one after the other, each into its own directory
        List<String> masks = List.of(System.getProperty("pf.gen.features", "all").split(";"));
        int maxPhases = Integer.getInteger("pf.gen.phases", MpiProgramGenerator.DEFAULT_MAX_PHASES);
        Path top = Path.of(System.getProperty("pf.gen.out", "target/gen-mpi")).toAbsolutePath();
        Path examples = Path.of(System.getProperty("pf.gen.examples", top.resolve("examples").toString()));
        String profileName = System.getProperty("pf.gen.profile", "default");
        List<String> policies = System.getProperty("pf.gen.policies") == null ? bundledPolicies()
                : List.of(System.getProperty("pf.gen.policies").split(","));
        Profile profile = ProfileRegistry.load(profileName);

        long failed = 0;
        StringBuilder all = new StringBuilder();
        StringBuilder byMask = new StringBuilder("per feature mask: passed / refused / failed, then the categories"
                + " (seeds) [policies]\n");
        for (String mask : masks) {
            Set<MpiProgramGenerator.Feature> features = MpiProgramGenerator.Feature.parse(mask);
            Path out = masks.size() == 1 ? top : top.resolve(mask.replaceAll("[^A-Za-z0-9]+", "_"));
            Files.createDirectories(out);
            Path results = out.resolve("results.txt");
            Files.writeString(results, "");
            List<Outcome> outcomes = new ArrayList<>();
            long started = System.nanoTime();
            for (long seed = first; seed < first + count; seed++) {
                MpiProgramGenerator.Program prog = MpiProgramGenerator.generate(seed, features, maxPhases);
                Outcome o = runOne(prog, out, policies, profile);
                outcomes.add(o);
                String line = "seed " + seed + ": " + prog.ranks() + " ranks, " + prog.phases().size() + " phases, "
                        + o.verdict() + (o.failures().isEmpty() ? "" : " " + grouped(o.failures()))
                        + (o.detail().isEmpty() ? "" : " -- " + o.detail());
                System.out.println(line);
                Files.writeString(results, line + "\n", StandardOpenOption.APPEND);
            }
            double seconds = (System.nanoTime() - started) / 1e9;
            Map<String, List<Outcome>> categories = categories(outcomes);
            String summary = summary(outcomes, categories, features, maxPhases, profileName, seconds, out, examples);
            Files.writeString(out.resolve("summary.txt"), summary);
            all.append(summary).append('\n');
            long bad = outcomes.stream().filter(o -> !o.failures().isEmpty()).count();
            failed += bad;
            byMask.append(String.format(Locale.ROOT, "%-40s %3d / %3d / %3d%n", mask,
                    outcomes.stream().filter(o -> o.verdict().equals("PASS")).count(),
                    outcomes.stream().filter(o -> o.verdict().equals("REFUSED")).count(), bad));
            Map<String, Set<String>> hit = categoryPolicies(outcomes);
            categories.forEach((k, v) -> byMask.append("      ").append(k).append(" (").append(v.size()).append(")")
                    .append(hit.containsKey(k) ? " " + hit.get(k) : "").append('\n'));
        }
        if (masks.size() > 1) {
            all.append(byMask);
            Files.writeString(top.resolve("summary.txt"), all.toString());
        }
        System.out.println(all);
        assertEquals(0, failed, all.toString());
    }

    /** Generation is a function of the seed and the mask, as a failing seed must be reproducible. */
    @Test
    void theSameSeedWritesTheSameProgram() {
        Set<MpiProgramGenerator.Feature> all = EnumSet.allOf(MpiProgramGenerator.Feature.class);
        for (long seed = 1; seed <= 20; seed++) {
            MpiProgramGenerator.Program a = MpiProgramGenerator.generate(seed, all, 5);
            MpiProgramGenerator.Program b = MpiProgramGenerator.generate(seed, all, 5);
            assertEquals(a.source(), b.source());
            assertTrue(a.ranks() >= 2 && a.ranks() <= 8, "ranks " + a.ranks());
        }
    }

    private static Outcome runOne(MpiProgramGenerator.Program prog, Path out, List<String> policies, Profile profile)
            throws IOException, InterruptedException {
        long seed = prog.seed();
        Path dir = out.resolve("seed-" + seed);
        Files.createDirectories(dir);
        Path src = dir.resolve("prog.c");
        Files.writeString(src, prog.source());
        Path exe = dir.resolve("prog");
        int phases = prog.phases().size();
        int chars = prog.source().length();

        long t0 = System.nanoTime();
        Run cc = exec(List.of("mpicc", "-O1", "-Wall", "-Wno-unused-function", "-Wno-unused-but-set-variable", "-o", exe.toString(), src.toString()), dir.resolve("cc.log"), 120);
        if (cc.status != 0) {
            return fail(prog, "generator: the program does not compile", "see " + dir.resolve("cc.log"));
        }
        // A program that records ran to its end under the recorder, checks passed: it runs, and the
        // native run is needed only to tell whose failure a failed recording is.
        if (Boolean.getBoolean("pf.gen.nativeOnly") || Boolean.getBoolean("pf.gen.alwaysNative")) {
            String whyNot = nativeFailure(prog, exe, dir);
            if (whyNot != null) {
                return fail(prog, whyNot, firstLine(dir.resolve("native.log")));
            }
            if (Boolean.getBoolean("pf.gen.nativeOnly")) {
                return new Outcome(seed, prog.ranks(), phases, chars, "PASS", List.of(), "native only");
            }
        }

        long t1 = System.nanoTime();
        Path trace = dir.resolve("prog.trace.jsonl");
        Files.deleteIfExists(trace);
        // the recorder library is built once, where `pagefabric record` keeps it
        Path cache = Path.of(System.getProperty("pf.gen.cache", Path.of(System.getProperty("user.home"), ".cache",
                "pagefabric").toString()));
        CompletableFuture<Object> rec = CompletableFuture.supplyAsync(() -> {
            try {
                return MpiRecorder.record(List.of("mpirun", "-n", String.valueOf(prog.ranks()), exe.toString()), trace,
                        cache);
            } catch (RecordingRefused e) {
                return e;
            } catch (RuntimeException e) {
                return e;
            }
        });
        Object r;
        try {
            r = rec.get(RECORD_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            // only the launchers this test started, by their process ids
            ProcessHandle.current().descendants().filter(p -> p.info().command().orElse("").endsWith("mpirun")
                    || p.info().command().orElse("").endsWith("prog")).forEach(ProcessHandle::destroyForcibly);
            return fail(prog, "record: hangs", "");
        } catch (ExecutionException e) {
            return fail(prog, "record: " + e.getCause().getClass().getSimpleName(), oneLine(e.getCause()));
        }
        if (r instanceof RecordingRefused e) {
            String m = e.getMessage();
            if (m == null || m.contains("\n")) {
                return fail(prog, "record: refusal not in one line", String.valueOf(m));
            }
            if (m.startsWith("the program failed") || m.contains("did not reach MPI_Finalize")
                    || m.contains("left no log")) {
                String whyNot = nativeFailure(prog, exe, dir);
                // a program that runs natively but not under the recorder was changed by it
                return whyNot != null ? fail(prog, whyNot, firstLine(dir.resolve("native.log")))
                        : fail(prog, "record: the program fails under the recorder", m);
            }
            return new Outcome(seed, prog.ranks(), phases, chars, "REFUSED", List.of(), m);
        }
        if (r instanceof RuntimeException e) {
            return fail(prog, "record: " + e.getClass().getSimpleName() + ": " + normalise(oneLine(e)), oneLine(e));
        }
        MpiRecorder.Result result = (MpiRecorder.Result) r;
        long tally = 0;
        try {
            Trace t = Trace.read(trace);
            for (Map<String, Long> rank : t.header().mpiCalls()) {
                tally += rank.values().stream().mapToLong(Long::longValue).sum();
            }
        } catch (RuntimeException e) {
            return fail(prog, "trace: unreadable: " + normalise(oneLine(e)), oneLine(e));
        }
        if (tally != result.calls()) {
            return fail(prog, "record: header tally differs from the recorder's count", tally + " != " + result.calls());
        }

        long t2 = System.nanoTime();
        List<String> failures = new ArrayList<>();
        int ran = 0;
        int declined = 0;
        for (String policy : policies) {
            String why = replay(policy, profile, trace, tally);
            if (why == null) {
                ran++;
            } else if (why.startsWith("DECLINED")) {
                declined++;
            } else {
                failures.add(policy + ": " + why);
            }
        }
        String detail = String.format(Locale.ROOT, "%d policies verified, %d declined; %d records; build and run"
                + " %.1f s, record %.1f s, replays %.1f s", ran, declined, result.records(), (t1 - t0) / 1e9,
                (t2 - t1) / 1e9, (System.nanoTime() - t2) / 1e9);
        return new Outcome(seed, prog.ranks(), phases, chars, failures.isEmpty() ? "PASS" : "FAIL", failures, detail);
    }

    /** Null when the program runs natively to a zero exit, or the generator's failure. */
    private static String nativeFailure(MpiProgramGenerator.Program prog, Path exe, Path dir)
            throws IOException, InterruptedException {
        Run nat = exec(List.of("mpirun", "--oversubscribe", "-n", String.valueOf(prog.ranks()), exe.toString()),
                dir.resolve("native.log"), NATIVE_TIMEOUT_S);
        if (nat.timedOut) {
            return "generator: the program hangs natively";
        }
        return nat.status != 0 ? "generator: the program fails natively" : null;
    }

    /**
     * Policies that keep registrations with nothing to tell them the memory changed, by design: the
     * cache without a monitor, rendezvous's local pin cache (seed 004's baseline), Open-MX's
     * permanent pinning. Memory freed and allocated again reaches them through stale frames, which
     * the replay shows as not verified: their own outcome, not the replay's.
     */
    static final Set<String> KEEPS_STALE = Set.of("cache-nomonitor", "rendezvous-unpin", "rendezvous-nounpin",
            "openmx-permanent");

    /** Null when the replay verified with every call performed; {@code DECLINED...}; or the failure's category. */
    private static String replay(String policy, Profile profile, Path trace, long tally) {
        Map<String, Object> row;
        PointRun.Started t = null;
        try {
            t = PointRun.start(profile, policy, new TraceWorkload(), Map.of(TraceWorkload.TRACE, trace.toString()), 1);
            // in slices of simulated time, so that a replay that never ends is stopped by the wall clock
            Simulator sim = t.simulator();
            long deadline = System.nanoTime() + REPLAY_TIMEOUT_S * 1_000_000_000L;
            while (sim.pendingEvents() > 0) {
                if (System.nanoTime() > deadline) {
                    t.abandon();
                    return "replay runs longer than " + REPLAY_TIMEOUT_S + " s of wall time";
                }
                sim.runUntil(sim.now() + REPLAY_SLICE_PS);
            }
            row = t.finish();
        } catch (RuntimeException e) {
            for (Throwable c = e; c != null; c = c.getCause()) {
                if (c instanceof PolicyRefusal) {
                    return "DECLINED " + c.getMessage();
                }
            }
            if (t != null) {
                t.abandon();
            }
            if (KEEPS_STALE.contains(policy) && oneLineOf(e).contains("EFAULT: pinning")) {
                // its stale view of memory: a range it extends over frees since, pinned again
                return "DECLINED " + policy + " pins a range it remembers over memory freed since: " + oneLineOf(e);
            }
            return category(e, policy, trace);
        }
        if (!Boolean.TRUE.equals(row.get("verified"))) {
            String reason = String.valueOf(row.get(PointRun.REASON));
            if (KEEPS_STALE.contains(policy) && reason.endsWith("(a registration gone stale)")) {
                // the policy's own: it keeps registrations with nothing to tell it the memory changed
                return "DECLINED " + policy + " keeps registrations of freed memory: " + reason;
            }
            return "not verified: " + category(reason, policy, trace);
        }
        Object corrupted = row.get(TraceWorkload.CORRUPTED);
        if (corrupted instanceof Number n && n.longValue() != 0) {
            return "corrupted operations";
        }
        Object calls = row.get(TraceWorkload.MPI_CALLS);
        if (!(calls instanceof Number n) || n.longValue() != tally) {
            return "mpi_calls differ from the recorded tally";
        }
        return null;
    }

    /** The innermost message of a failure, without the wrappers that name the process and the trace line. */
    static String category(Throwable e, String policy, Path trace) {
        Throwable c = e;
        while (c.getCause() != null && c.getCause() != c) {
            c = c.getCause();
        }
        return category(oneLine(c), policy, trace);
    }

    /** A failure message reduced to what it has in common with others of its kind. */
    static String category(String message, String policy, Path trace) {
        String m = message;
        String before;
        do {
            before = m;
            m = m.replaceFirst("^process \\S+ failed at [0-9.]+ [a-zµ]+: ", "")
                    .replaceFirst("^[a-zA-Z.]+(Exception|Error): ", "")
                    .replace(trace.toString(), "TRACE")
                    .replaceFirst("^TRACE:\\d+: ", "");
        } while (!m.equals(before));
        message = m.replace(" " + policy + " ", " POLICY ").replace(" " + policy + ",", " POLICY,")
                .replace(" " + policy + ":", " POLICY:");
        if (message.contains("deadlock")) {
            return "deadlock";
        }
        if (message.contains("LOCAL_PROTECTION_ERROR")) {
            return "LOCAL_PROTECTION_ERROR";
        }
        if (message.contains("retry limit")) {
            return "the transport gave up (retry limit)";
        }
        // the category is the reason without its figures
        return normalise(message.replaceAll("node\\d+\\.[\\w.-]+", "PROCESS"));
    }

    static String normalise(String m) {
        String s = m.replaceAll("0x[0-9a-fA-F]+", "ADDR").replaceAll("\\d+(\\.\\d+)?", "N");
        return s.length() > 110 ? s.substring(0, 110) + "..." : s;
    }

    /** The policies PageFabric ships, without those the test class path adds as examples. */
    private static List<String> bundledPolicies() {
        List<String> names = new ArrayList<>();
        for (PolicyProvider p : ServiceLoader.load(PolicyProvider.class)) {
            var where = p.getClass().getProtectionDomain().getCodeSource();
            if (where == null || !where.getLocation().toString().contains("test-classes")) {
                p.policies().forEach(d -> names.add(d.name()));
            }
        }
        return names;
    }

    private static String oneLineOf(Throwable e) {
        Throwable c = e;
        while (c.getCause() != null) {
            c = c.getCause();
        }
        return String.valueOf(c.getMessage()).lines().findFirst().orElse("");
    }

    private static boolean onPath(String program) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, program))) {
                return true;
            }
        }
        return false;
    }

    private static Outcome fail(MpiProgramGenerator.Program prog, String category, String detail) {
        return new Outcome(prog.seed(), prog.ranks(), prog.phases().size(), prog.source().length(), "FAIL",
                List.of(category), detail);
    }

    private static String oneLine(Throwable t) {
        String m = t.getMessage();
        return (m == null ? t.getClass().getSimpleName() : m).replace('\n', ' ');
    }

    private static String firstLine(Path log) throws IOException {
        for (String l : Files.readAllLines(log)) {
            if (l.startsWith("rank ")) {
                return l;
            }
        }
        List<String> all = Files.readAllLines(log);
        return all.isEmpty() ? "" : all.getFirst();
    }

    private record Run(int status, boolean timedOut) {
    }

    private static Run exec(List<String> cmd, Path log, long timeoutS) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        pb.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        Process p = pb.start();
        if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor();
            return new Run(-1, true);
        }
        return new Run(p.exitValue(), false);
    }

    /** Failures as {@code category [policies]}, one entry per category. */
    private static String grouped(List<String> failures) {
        Map<String, List<String>> by = new LinkedHashMap<>();
        for (String fl : failures) {
            int colon = fl.indexOf(": ");
            if (colon > 0 && PolicyRegistry.standard().contains(fl.substring(0, colon))) {
                by.computeIfAbsent(fl.substring(colon + 2), k -> new ArrayList<>()).add(fl.substring(0, colon));
            } else {
                by.computeIfAbsent(fl, k -> new ArrayList<>());
            }
        }
        List<String> parts = new ArrayList<>();
        by.forEach((k, v) -> parts.add(k + (v.isEmpty() ? "" : " [" + String.join(", ", v) + "]")));
        return String.join("; ", parts);
    }

    /** The table of failure categories, with the policies each hit and the smallest program showing it. */
    /** Each failure category (a replay's without its policy) with the seeds that showed it, most seeds first. */
    private static Map<String, List<Outcome>> categories(List<Outcome> outcomes) {
        Map<String, List<Outcome>> bySeed = new LinkedHashMap<>();
        for (Outcome o : outcomes) {
            Set<String> seen = new TreeSet<>();
            for (String fl : o.failures()) {
                String cat = withoutPolicy(fl)[1];
                if (seen.add(cat)) {
                    bySeed.computeIfAbsent(cat, k -> new ArrayList<>()).add(o);
                }
            }
        }
        List<Map.Entry<String, List<Outcome>>> rows = new ArrayList<>(bySeed.entrySet());
        rows.sort(Comparator.comparingInt((Map.Entry<String, List<Outcome>> e) -> -e.getValue().size())
                .thenComparing(Map.Entry::getKey));
        Map<String, List<Outcome>> sorted = new LinkedHashMap<>();
        rows.forEach(e -> sorted.put(e.getKey(), e.getValue()));
        return sorted;
    }

    private static Map<String, Set<String>> categoryPolicies(List<Outcome> outcomes) {
        Map<String, Set<String>> policies = new TreeMap<>();
        for (Outcome o : outcomes) {
            for (String fl : o.failures()) {
                String[] pc = withoutPolicy(fl);
                if (pc[0] != null) {
                    policies.computeIfAbsent(pc[1], k -> new TreeSet<>()).add(pc[0]);
                }
            }
        }
        return policies;
    }

    /** {policy or null, category}: a replay's failure is {@code policy: reason}. */
    private static String[] withoutPolicy(String failure) {
        int colon = failure.indexOf(": ");
        if (colon > 0 && PolicyRegistry.standard().contains(failure.substring(0, colon))) {
            return new String[] {failure.substring(0, colon), "replay: " + failure.substring(colon + 2)};
        }
        return new String[] {null, failure};
    }

    private static String summary(List<Outcome> outcomes, Map<String, List<Outcome>> categories,
                                  Set<MpiProgramGenerator.Feature> features, int maxPhases,
                                  String profile, double seconds, Path out, Path examples) throws IOException {
        StringBuilder b = new StringBuilder();
        long pass = outcomes.stream().filter(o -> o.verdict().equals("PASS")).count();
        long refused = outcomes.stream().filter(o -> o.verdict().equals("REFUSED")).count();
        long failed = outcomes.size() - pass - refused;
        b.append(String.format(Locale.ROOT, "random MPI programs: %d seeds (%d to %d), features %s, at most %d phases,"
                        + " profile %s, %.0f s%n", outcomes.size(), outcomes.isEmpty() ? 0 : outcomes.getFirst().seed(),
                outcomes.isEmpty() ? 0 : outcomes.getLast().seed(), features, maxPhases, profile, seconds));
        b.append(String.format(Locale.ROOT, "passed %d, refused at record time %d, failed %d%n", pass, refused, failed));
        Map<String, List<Outcome>> refusals = new TreeMap<>();
        for (Outcome o : outcomes) {
            if (o.verdict().equals("REFUSED")) {
                refusals.computeIfAbsent(normalise(o.detail()), k -> new ArrayList<>()).add(o);
            }
        }
        for (Map.Entry<String, List<Outcome>> e : refusals.entrySet()) {
            b.append("refused (").append(e.getValue().size()).append("): ").append(e.getKey()).append('\n');
        }
        Map<String, List<Outcome>> bySeed = categories;
        Map<String, Set<String>> policies = categoryPolicies(outcomes);
        if (!bySeed.isEmpty()) {
            b.append("\nfailure categories (seeds; policies; smallest example):\n");
            List<Map.Entry<String, List<Outcome>>> rows = new ArrayList<>(bySeed.entrySet());
            Files.createDirectories(examples);
            for (Map.Entry<String, List<Outcome>> e : rows) {
                Outcome ex = e.getValue().stream().min(Comparator.comparingInt(Outcome::phases)
                        .thenComparingInt(Outcome::sourceChars)).orElseThrow();
                String slug = e.getKey().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "-").replaceAll("^-|-$", "");
                if (slug.length() > 60) {
                    slug = slug.substring(0, 60);
                }
                String maskSlug = features.size() == MpiProgramGenerator.Feature.values().length ? "all"
                        : features.toString().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_").replaceAll("^_|_$", "");
                Path copy = examples.resolve(slug + "--" + maskSlug + "--seed-" + ex.seed() + ".c");
                Files.copy(out.resolve("seed-" + ex.seed()).resolve("prog.c"), copy,
                        java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                b.append(String.format(Locale.ROOT, "%5d  %s%n       policies: %s%n       example: seed %d (%d ranks, %d"
                                + " phases) %s%n", e.getValue().size(), e.getKey(),
                        policies.containsKey(e.getKey()) ? String.join(", ", policies.get(e.getKey())) : "-",
                        ex.seed(), ex.ranks(), ex.phases(), copy));
            }
        }
        return b.toString();
    }
}
