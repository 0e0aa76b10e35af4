package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The command line end to end, in process: exit codes, one-line refusals, no stack traces. */
class CliTest {
    record Result(int code, String out, String err) {
    }

    static Result run(String... args) {
        CommandLine cl = Main.commandLine();
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    @Test
    void helpListsEveryCommand() {
        Result r = run("--help");
        assertEquals(0, r.code());
        for (String c : new String[] {"run", "reproduce", "compare", "info", "calibrate", "bench"}) {
            assertTrue(r.out().contains(c), "help mentions " + c + ":\n" + r.out());
        }
    }

    @Test
    void versionNamesVersionCommitAndJvm() {
        Result r = run("--version");
        assertEquals(0, r.code());
        assertTrue(r.out().startsWith("PageFabric "), r.out());
        assertTrue(r.out().contains("commit"), r.out());
        assertTrue(r.out().contains("JVM: "), r.out());
    }

    @Test
    void unknownCommandIsAUsageError() {
        Result r = run("frobnicate");
        assertEquals(2, r.code());
        assertEquals(List.of("pagefabric: unknown command 'frobnicate'; commands: run, reproduce, compare, fit, info,"
                + " calibrate, bench, merge, slurm, record, sensitivity (did you mean calibrate or reproduce?)", "try 'pagefabric --help'"),
                r.err().lines().toList());
    }

    @Test
    void aUsageErrorIsOneLineAndAHintNotTheUsageText() {
        Result r = run("run", "latency", "--iterations", "x");
        assertEquals(2, r.code());
        List<String> lines = r.err().lines().toList();
        assertEquals(2, lines.size(), r.err());
        assertTrue(lines.get(0).startsWith("pagefabric run: ") && lines.get(0).contains("--iterations"), r.err());
        assertEquals("try 'pagefabric run --help'", lines.get(1));
        Result typo = run("run", "latency", "--iteration", "3");
        assertEquals(2, typo.err().lines().count(), typo.err());
        assertTrue(typo.err().contains("did you mean --iterations"), typo.err());
    }

    @Test
    void aProfileExtendingADeviceIsRefusedAtItsExtendsLine(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path p = java.nio.file.Files.writeString(dir.resolve("p.yaml"),
                "name: p\ndescription: a test\nextends: /dev/full\nparameters: {}\n");
        Result r = run("run", "latency", "--profile", p.toString(), "--sizes", "8", "--iterations", "1");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(p + ":3") && r.err().contains("extends") && r.err().contains("/dev/full"), r.err());
    }

    @Test
    void countsAreAsciiDigitsWithinRange() {
        for (String bad : new String[] {"\u0668", "\uff18", "2147483648", "1e3", " 1", ""}) {
            Result r = run("run", "latency", "--sizes", "8", "--iterations", bad);
            assertEquals(2, r.code(), "--iterations '" + bad + "': " + r.err());
            assertTrue(r.err().contains("--iterations"), r.err());
        }
        Result seed = run("run", "latency", "--sizes", "8", "--iterations", "1", "--seed", "9223372036854775808");
        assertEquals(2, seed.code(), seed.err());
        assertTrue(seed.err().contains("too large"), seed.err());
        assertEquals(0, run("run", "latency", "--sizes", "8", "--iterations", "+1", "--seed", "3").code());
    }

    @Test
    void anUnwritableOutIsRefusedBeforeAnyPointRuns(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path file = java.nio.file.Files.writeString(dir.resolve("a-file"), "x");
        for (String out : new String[] {"", file.toString(), file.resolve("below").toString(), "/dev/full"}) {
            for (String cmd : new String[] {"run", "compare"}) {
                Result r = run(cmd, "latency", "--sizes", "8", "--iterations", "1", "--out", out);
                assertEquals(2, r.code(), cmd + " --out '" + out + "': " + r.err());
                assertEquals("", r.out(), "nothing ran");
                assertTrue(r.err().lines().findFirst().orElse("").contains("--out"), r.err());
                assertTrue(r.err().lines().count() <= 2, r.err());
            }
            Result rep = run("reproduce", "omx.table1", "--quick", "--out", out);
            assertEquals(2, rep.code(), "reproduce --out '" + out + "': " + rep.err());
            assertTrue(rep.err().contains("--out"), rep.err());
        }
        assertEquals("x", java.nio.file.Files.readString(file));
    }

    @Test
    void unknownOptionIsAUsageError() {
        Result r = run("--frobnicate");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("Unknown option"), r.err());
        assertFalse(r.err().contains("\tat "), "no stack trace");
    }

    @Test
    void noCommandIsAUsageError() {
        Result r = run();
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith("pagefabric: Missing command: one of run, reproduce"), r.err());
    }

    @Test
    void benchKernelJsonHasOneObjectPerConfiguration() throws Exception {
        Result r = run("bench", "kernel", "--in-flight", "256,1024", "--events", "20000", "--repetitions", "1",
                "--format", "json");
        assertEquals(0, r.code(), r.err());
        JsonNode rows = new ObjectMapper().readTree(r.out());
        assertEquals(2, rows.size());
        assertEquals(256, rows.get(0).get("in_flight").asInt());
        assertEquals(1024, rows.get(1).get("in_flight").asInt());
        for (JsonNode row : rows) {
            double ours = row.get("events_per_s").asDouble();
            double ref = row.get("reference_events_per_s").asDouble();
            assertTrue(ours > 0 && ref > 0, row.toString());
            assertEquals(ours / ref, row.get("ratio").asDouble(), 0.01 * ours / ref, row.toString());
        }
    }

    @Test
    void benchKernelRefusesNonsense() {
        Result r = run("bench", "kernel", "--in-flight", "0");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--in-flight"), r.err());
    }

    @Test
    void benchProcessJson() throws Exception {
        Result r = run("bench", "process", "--impl", "continuation", "--processes", "1", "--mode", "sleep",
                "--resumes", "2000", "--repetitions", "1", "--format", "json");
        assertEquals(0, r.code(), r.err());
        JsonNode rows = new ObjectMapper().readTree(r.out());
        assertEquals(1, rows.size());
        assertEquals("continuation", rows.get(0).get("impl").asText());
        assertTrue(rows.get(0).get("ns_per_resume").asDouble() > 0);
    }

    @Test
    void benchProcessRefusesAnUnknownImplementation() {
        Result r = run("bench", "process", "--impl", "bogus");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("bogus"), r.err());
    }

    @Test
    void runLatencyGivesVerifiedRowsPerSize() throws Exception {
        Result r = run("run", "latency", "--sizes", "8,4K,64K", "--iterations", "3", "--format", "json", "--threads", "1");
        assertEquals(0, r.code(), r.err());
        JsonNode rows = new ObjectMapper().readTree(r.out());
        assertEquals(3, rows.size());
        double previous = 0;
        for (JsonNode row : rows) {
            assertEquals("latency", row.get("workload").asText());
            assertEquals("pin-all", row.get("policy").asText());
            assertTrue(row.get("verified").asBoolean(), row.toString());
            double lat = row.get("latency_us").asDouble();
            assertTrue(lat > 0, row.toString());
            assertTrue(lat >= previous, "latency grows with size: " + rows);
            previous = lat;
            assertTrue(row.get("pinned_MiB").asDouble() > 0, row.toString());
        }
    }

    @Test
    void runResultsDoNotDependOnThreadsOrRepetition() {
        String[] args = {"run", "bandwidth", "--sizes", "4K..64K", "--iterations", "4", "--format", "csv"};
        Result one = run(concat(args, "--threads", "1"));
        Result two = run(concat(args, "--threads", "2"));
        Result again = run(concat(args, "--threads", "2"));
        assertEquals(0, one.code(), one.err());
        assertEquals(one.out(), two.out());
        assertEquals(two.out(), again.out());
    }

    @Test
    void runPingPongOnTheOtherProfiles() throws Exception {
        for (String profile : new String[] {"part-forth", "odp-connectx"}) {
            Result r = run("run", "pingpong", "--profile", profile, "--sizes", "8,16K", "--iterations", "2",
                    "--format", "json");
            assertEquals(0, r.code(), profile + ": " + r.err());
            for (JsonNode row : new ObjectMapper().readTree(r.out())) {
                assertTrue(row.get("verified").asBoolean(), row.toString());
                assertEquals(profile, row.get("profile").asText());
            }
        }
    }

    @Test
    void runGoesThroughTheExperimentPipeline(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        Result r = run("run", "latency", "--sizes", "8,4K", "--iterations", "2", "--set", "link.latency=1 us",
                "--format", "json", "--out", dir.toString());
        assertEquals(0, r.code(), r.err());
        JsonNode rows = new ObjectMapper().readTree(r.out());
        assertEquals(1_000_000, rows.get(0).get("link.latency_ps").asLong(), "the --set value reaches the rows");
        assertTrue(rows.get(0).get("latency_us").asDouble() > 2, "and the model: a 1 us link makes writes slower");
        java.nio.file.Path exp = dir.resolve("run.latency");
        assertTrue(java.nio.file.Files.readString(exp.resolve("spec.resolved.yaml")).contains("link.latency"));
        assertTrue(java.nio.file.Files.exists(exp.resolve("report.html")));
        assertEquals(2, run("run", "latency", "--set", "nosuch.key=1").code());
        assertEquals(2, run("run", "latency", "--set", "no-equals-sign").code());
    }

    @Test
    void runRefusesBadInputWithExit2() {
        assertEquals(2, run("run", "warp").code());
        assertTrue(run("run", "warp").err().contains("valid: latency, bandwidth, pingpong"));
        assertEquals(2, run("run", "latency", "--profile", "no-such-profile").code());
        assertEquals(2, run("run", "latency", "--sizes", "8..x").code());
        assertEquals(2, run("run", "latency", "--policy", "magic").code());
        assertFalse(run("run", "latency", "--policy", "magic").err().contains("\tat "));
    }

    @Test
    void infoListsWhatExistsFromTheRegistries() {
        Result all = run("info");
        assertEquals(0, all.code(), all.err());
        assertTrue(all.out().contains("part-forth") && all.out().contains("pin-all") && all.out().contains("pingpong"));
        Result params = run("info", "parameters");
        assertEquals(0, params.code());
        for (org.pagefabric.config.Parameter p : org.pagefabric.config.ParameterRegistry.all()) {
            assertTrue(params.out().contains(p.name()), "every registered parameter is listed: " + p.name());
        }
        Result mtu = run("info", "transport.mtu");
        assertEquals(0, mtu.code());
        assertTrue(mtu.out().contains("256 B") && mtu.out().contains("000 §III-A"), mtu.out());
        Result profile = run("info", "odp-connectx");
        assertEquals(0, profile.code());
        assertTrue(profile.out().contains("extends: odp-connectx < default"), profile.out());
    }

    @Test
    void compareRanksEveryPolicyPerSize() throws Exception {
        Result r = run("compare", "latency", "--sizes", "64,64K", "--iterations", "3", "--format", "json");
        assertEquals(0, r.code(), r.err());
        JsonNode rows = new ObjectMapper().readTree(r.out());
        // Open-MX policies refuse one-sided writes (MX has none): compare leaves them out of latency
        // PART's, ATS's and Active Access's policies need an IOMMU on the NIC's path, which the default profile lacks.
        var registry = org.pagefabric.reg.PolicyRegistry.standard();
        long policies = registry.names().stream().filter(n -> !n.startsWith("openmx-"))
                .filter(n -> !registry.descriptor(n).capabilities().contains(org.pagefabric.reg.Capability.NEEDS_IOMMU))
                .filter(n -> !n.startsWith("aa-")).count();
        assertEquals(2 * policies, rows.size());
        for (JsonNode row : rows) {
            assertTrue(!row.get("policy").asText().startsWith("openmx-"), row.toString());
        }
        assertTrue(r.err().contains("part-pio") && r.err().contains("openmx-pin"), "left out, named: " + r.err());
        assertEquals(1, rows.get(0).get("rank").asInt());
        assertEquals(64, rows.get(0).get("size_B").asLong());
        for (JsonNode row : rows) {
            assertTrue(row.get("verified").asBoolean(), row.toString());
        }
        assertEquals(2, run("compare", "nosuch").code());
    }

    @Test
    void reproduceRefusesWhatCannotRunYetInOneLineEachAndWritesAnIndex(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) {
        Result all = run("reproduce", "--quick", "--out", dir.toString());
        assertEquals(0, all.code(), all.err());
        long refusals = all.err().lines().filter(l -> l.contains(": not reproducible yet: ")).count();
        long pending = org.pagefabric.experiment.SpecReader.bundledIds().stream()
                .filter(id -> !org.pagefabric.experiment.SpecReader.bundled(id).runnable()).count();
        assertEquals(pending, refusals);
        assertTrue(java.nio.file.Files.exists(dir.resolve("index.html")));
        java.nio.file.Path waiting = dir.resolve("waiting.yaml");
        try {
            java.nio.file.Files.writeString(waiting, """
                    id: test.waiting
                    title: An experiment whose mechanism has not landed
                    requires:
                      - "a mechanism nobody has built"
                    workload: latency
                    policies: [pin-all]
                    profile: default
                    """);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        Result one = run("reproduce", waiting.toString(), "--out", dir.toString());
        assertEquals(2, one.code(), "a named experiment that cannot run is refused");
        assertTrue(one.err().startsWith("test.waiting: not reproducible yet: a mechanism nobody has built"), one.err());
        Result bad = run("reproduce", "part.fig99");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("part.fig7"), "lists the valid ids: " + bad.err());
    }

    @Test
    void reproduceRunsASpecFileThroughThePipeline(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path spec = java.nio.file.Path.of("docs/examples/latency-sweep.yaml");
        Result r1 = run("reproduce", spec.toString(), "--quick", "--threads", "1", "--out", dir.resolve("a").toString());
        Result r2 = run("reproduce", spec.toString(), "--quick", "--threads", "3", "--out", dir.resolve("b").toString());
        assertEquals(0, r1.code(), r1.err());
        assertEquals(0, r2.code(), r2.err());
        java.nio.file.Path a = dir.resolve("a/example.latency-sweep");
        java.nio.file.Path b = dir.resolve("b/example.latency-sweep");
        for (String f : new String[] {"rows.csv", "rows.json", "manifest.json", "spec.resolved.yaml", "plot.png", "plot.svg",
                "report.html"}) {
            assertTrue(java.nio.file.Files.size(a.resolve(f)) > 0, f);
        }
        assertEquals(java.nio.file.Files.readString(a.resolve("rows.csv")), java.nio.file.Files.readString(b.resolve("rows.csv")),
                "results do not depend on the thread count");
        JsonNode rows = new ObjectMapper().readTree(a.resolve("rows.json").toFile());
        assertEquals(6, rows.size(), "2 link latencies x 3 sizes x 1 repetition (quick)");
        assertTrue(java.nio.file.Files.readString(dir.resolve("a/index.html")).contains("example.latency-sweep"));
    }

    @Test
    void aPolicyThatRefusesTheWorkloadOrTheHardwareIsAUsageErrorInOneLine() {
        Result puts = run("run", "latency", "--policy", "openmx-pin", "--sizes", "8", "--iterations", "2");
        assertEquals(2, puts.code(), puts.err());
        assertEquals(1, puts.err().lines().count(), puts.err());
        assertTrue(puts.err().startsWith("pagefabric run: error: openmx-pin "), puts.err());
        Result hardware = run("run", "fault-latency", "--policy", "part-pio", "--sizes", "8", "--iterations", "2");
        assertEquals(2, hardware.code(), hardware.err());
        assertTrue(hardware.err().contains("nic.iommu") && !hardware.err().contains("Exception"), hardware.err());
    }

    @Test
    void infoListsExperimentsWithTheirStatus() {
        Result r = run("info", "experiments");
        assertEquals(0, r.code(), r.err());
        for (String id : org.pagefabric.experiment.SpecReader.bundledIds()) {
            assertTrue(r.out().contains(id), id);
        }
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("x.hybrid") && l.contains("beyond the seeds")), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("x.hybrid") && l.contains("design check")), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("x.pciebench-iommu") && !l.contains("design check")),
                r.out());
        assertTrue(!r.out().contains("null"), "an experiment without a seed is listed as one: " + r.out());
        Result beyond = run("info", "x.hybrid");
        assertTrue(beyond.out().contains("reproduces: no seed") && !beyond.out().contains("null"), beyond.out());
        // Every bundled experiment runs today; one that waits says so, with its reason.
        for (String id : org.pagefabric.experiment.SpecReader.bundledIds()) {
            boolean runnable = org.pagefabric.experiment.SpecReader.bundled(id).runnable();
            Result one = run("info", id);
            assertEquals(0, one.code());
            assertEquals(!runnable, one.out().contains("not reproducible yet"), id + ": " + one.out());
        }
        Result runnable = run("info", "fh.fig3");
        assertEquals(0, runnable.code());
        assertTrue(!runnable.out().contains("not reproducible yet"), runnable.out());
    }

    @Test
    void infoDocumentsEachPolicysParameters() {
        for (String policy : org.pagefabric.reg.PolicyRegistry.standard().names()) {
            Result r = run("info", policy);
            assertEquals(0, r.code(), policy + ": " + r.err());
            for (org.pagefabric.config.Parameter p : org.pagefabric.reg.PolicyRegistry.standard().descriptor(policy).parameters()) {
                assertTrue(r.out().contains(p.name()), policy + " documents " + p.name());
            }
        }
        assertTrue(run("info", "firehose").out().contains("firehose.maxvictim"));
        assertTrue(run("info", "cache-mmu").out().contains("cache.max_entries"));
    }

    @Test
    void infoOnAnUnknownNameSuggestsAndExits2() {
        Result r = run("info", "trnsport.mtu");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("transport.mtu"), r.err());
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void benchWithoutTargetListsTargets() {
        Result r = run("bench");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("kernel") && r.err().contains("process"), r.err());
    }

    @Test
    void compareRunsAnExperimentUnderEveryPolicy(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        Result r = run("compare", "fh.fig5", "--quick", "--out", dir.toString(), "--format", "json");
        assertEquals(0, r.code(), r.err());
        java.nio.file.Path out = dir.resolve("compare-fh.fig5");
        for (String f : new String[] {"rows.csv", "rows.json", "manifest.json", "plot.png", "report.html"}) {
            assertTrue(java.nio.file.Files.exists(out.resolve(f)), f);
        }
        JsonNode ranked = new ObjectMapper().readTree(r.out());
        long policies = org.pagefabric.reg.PolicyRegistry.standard().names().size();
        java.util.Set<String> seen = new java.util.TreeSet<>();
        ranked.forEach(row -> seen.add(row.get("policy").asText()));
        java.util.Set<String> apart = new java.util.TreeSet<>();
        r.err().lines().filter(l -> l.startsWith("not ranked, ")).forEach(l -> apart.addAll(
                java.util.List.of(l.split(": ")[1].split(", "))));
        assertEquals(policies, seen.size() + apart.size(), "every policy ran or said why not: " + seen + "\n" + r.err());
        assertTrue(seen.contains("firehose") && seen.contains("pin-all"), "policies that put ran: " + seen);
        assertTrue(r.err().contains("cannot run: openmx-pin, "), "Open-MX has no one-sided puts: " + r.err());
        assertEquals(1, ranked.get(0).get("rank").asInt());
        String metric = org.pagefabric.experiment.SpecReader.bundled("fh.fig5").plot().y();
        assertTrue(ranked.get(0).get(metric).asDouble() >= ranked.get(1).get(metric).asDouble(),
                "bandwidth ranks highest first");
        java.nio.file.Path waiting = dir.resolve("waiting.yaml");
        java.nio.file.Files.writeString(waiting, """
                id: test.waiting
                title: An experiment whose mechanism has not landed
                requires:
                  - "a mechanism nobody has built"
                workload: latency
                policies: [pin-all]
                profile: default
                """);
        Result refused = run("compare", waiting.toString(), "--quick");
        assertEquals(2, refused.code(), "an experiment that cannot run yet");
        assertTrue(refused.err().contains("a mechanism nobody has built"), refused.err());
    }

    @Test
    void compareReportsAPolicyThatRefusesAsNotApplicable(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        java.nio.file.Path spec = dir.resolve("gets.yaml");
        java.nio.file.Files.writeString(spec, """
                id: test.gets
                title: Gets after malloc and free
                workload: alloc-reuse
                policies: [pin-all, bounce, cache-nomonitor, cache-hooks]
                profile: default
                grid: {size_B: 4096, iterations: 2, rdma_read: true}
                plot: {x: size_B, y: latency_us, series: policy}
                """);
        Result r = run("compare", spec.toString(), "--out", dir.toString(), "--format", "json");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().lines().anyMatch(l -> l.startsWith("not ranked, cannot run: bounce: ")), r.err());
        assertTrue(java.nio.file.Files.exists(dir.resolve("compare-test.gets").resolve("report.html")));
        java.util.Set<String> ranked = new java.util.TreeSet<>();
        new ObjectMapper().readTree(r.out()).forEach(row -> ranked.add(row.get("policy").asText()));
        assertTrue(ranked.contains("cache-hooks"), "the spec's policies run: " + ranked);
        assertFalse(ranked.contains("odp-explicit"), "and only they: " + ranked);
    }

    @Test
    void compareHonoursSetAndRefusesUnknownKeys() throws Exception {
        Result plain = run("compare", "fault-latency", "--profile", "part-forth", "--sizes", "64K", "--policy", "part-pio",
                "--format", "json");
        Result faulting = run("compare", "fault-latency", "--profile", "part-forth", "--sizes", "64K", "--policy",
                "part-pio", "--set", "fault_fraction=1", "--format", "json");
        assertEquals(0, faulting.code(), faulting.err());
        double without = new ObjectMapper().readTree(plain.out()).get(0).get("latency_us").asDouble();
        double with = new ObjectMapper().readTree(faulting.out()).get(0).get("latency_us").asDouble();
        assertTrue(with > 2 * without, "every page faulting costs PART: " + without + " vs " + with);
        Result profileParameter = run("compare", "latency", "--sizes", "64", "--policy", "pin-all", "--set",
                "link.latency=1us", "--format", "json");
        assertTrue(new ObjectMapper().readTree(profileParameter.out()).get(0).get("latency_us").asDouble() > 1.0,
                "a microsecond of link latency shows: " + profileParameter.out());
        Result bogus = run("compare", "fault-latency", "--profile", "part-forth", "--sizes", "64K", "--set", "bogus.key=3");
        assertEquals(2, bogus.code());
        assertEquals(1, bogus.err().lines().count(), bogus.err());
        assertTrue(bogus.err().contains("bogus.key"), bogus.err());
        Result unknownPolicy = run("compare", "latency", "--policy", "pin-everything");
        assertEquals(2, unknownPolicy.code());
        assertTrue(unknownPolicy.err().contains("pin-all"), "names the valid policies: " + unknownPolicy.err());
    }

    @Test
    void compareNeverRanksAPolicyWhoseDataDidNotVerify() throws Exception {
        Result r = run("compare", "alloc-reuse", "--sizes", "1M", "--format", "json");
        assertEquals(0, r.code(), r.err());
        JsonNode rows = new ObjectMapper().readTree(r.out());
        java.util.Set<String> ranked = new java.util.TreeSet<>();
        rows.forEach(row -> {
            ranked.add(row.get("policy").asText());
            assertTrue(row.get("verified").asBoolean(), row.toString());
        });
        assertFalse(ranked.contains("cache-nomonitor"), "cache-nomonitor reuses stale frames: " + ranked);
        String apart = r.err().lines().filter(l -> l.startsWith("not ranked, data not verified: ")).findFirst()
                .orElseThrow(() -> new AssertionError(r.err()));
        assertTrue(apart.contains("cache-nomonitor") && apart.contains("verified=false at size_B 1048576"), apart);
    }

    @Test
    void aFailingPolicyIsListedApartAndTheComparisonCompletes() throws Exception {
        // a fifth of the packets lost: Open-MX, allowed two resends here, gives up; the bounce buffer's RC transport does not
        Result r = run("compare", "pingpong", "--sizes", "64K", "--iterations", "3", "--set", "link.loss=0.2",
                "--set", "openmx.retry_limit=2", "--policy", "openmx-overlap", "--policy", "bounce");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("bounce"), r.out());
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("not ranked, data not verified: openmx-overlap: ")),
                r.out());
        assertTrue(r.out().startsWith("NOT VERIFIED: 1 of 2 rows failed") && r.out().contains(
                "(openmx-overlap at size_B=65536: the transport gave up: a connection exceeded its retry limit)"),
                r.out());
        assertTrue(r.out().contains("recommended at size_B 65536: bounce: "), r.out());
    }

    @Test
    void schemesRankUnderOnePolicyWithSchemes() throws Exception {
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("compare-schemes-axis");
        Result r = run("compare", "aa.fig8", "--quick", "--schemes", "--out", dir.toString(), "--format", "json");
        assertEquals(0, r.code(), r.err());
        java.util.Set<String> ranked = new java.util.TreeSet<>();
        new ObjectMapper().readTree(r.out()).forEach(row -> ranked.add(row.get("scheme").asText()));
        assertEquals(java.util.Set.of("am", "no-ft", "rma"), ranked, "the baselines run under pin-all: " + r.err());
        assertTrue(r.err().contains("cannot run: aa: needs registration that pin-all does not give"), r.err());
        assertTrue(r.err().contains("3 schemes ran under pin-all"), r.err());
        Result aa = run("compare", "aa.fig8", "--quick", "--schemes", "--policy", "aa-poll", "--out", dir.toString(),
                "--format", "json");
        assertEquals(0, aa.code(), aa.err());
        new ObjectMapper().readTree(aa.out()).forEach(row -> assertEquals("aa", row.get("scheme").asText()));
        Result two = run("compare", "aa.fig8", "--quick", "--schemes", "--policy", "pin-all", "--policy", "aa-poll");
        assertEquals(2, two.code(), two.err());
        Result none = run("compare", "latency", "--schemes");
        assertEquals(2, none.code(), none.err());
        assertTrue(none.err().contains("--schemes: workload 'latency' runs no scheme"), none.err());
    }

    @Test
    void schemesAreNotPoliciesInTheRanking() throws Exception {
        // AA Fig. 8 runs four schemes; compare runs the policies under one, the workload's default (rma)
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("compare-schemes");
        Result r = run("compare", "aa.fig8", "--quick", "--policy", "pin-all", "--policy", "odp-explicit",
                "--out", dir.toString(), "--format", "json");
        assertEquals(0, r.code(), r.err());
        JsonNode rows = new ObjectMapper().readTree(r.out());
        assertTrue(rows.size() > 0, r.err());
        rows.forEach(row -> assertEquals("pin-all", row.get("policy").asText(), "one scheme, policies only: " + row));
        assertTrue(r.err().contains("cannot run: odp-explicit: gives scheme rma none of the registration it needs"),
                r.err());
        Result aa = run("compare", "aa.fig8", "--quick", "--scheme", "no-ft", "--policy", "pin-all", "--out",
                dir.toString(), "--format", "json");
        assertEquals(0, aa.code(), aa.err());
        new ObjectMapper().readTree(aa.out()).forEach(row -> assertEquals("pin-all", row.get("policy").asText()));
        Result bad = run("compare", "latency", "--scheme", "rma");
        assertEquals(2, bad.code(), bad.err());
    }

    @Test
    void reproduceOfAUserSpecPrintsItsRows(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        java.nio.file.Path spec = dir.resolve("my.yaml");
        java.nio.file.Files.writeString(spec, """
                id: my.latency
                title: My latency
                workload: latency
                policies: [pin-all, odp-explicit]
                profile: default
                grid: {size_B: [64, 4096], iterations: 2}
                metrics: [latency_us, pinned_MiB]
                """);
        Result r = run("reproduce", spec.toString(), "--out", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().lines().anyMatch(l -> l.contains("odp-explicit") && l.contains("4096")), r.out());
        assertTrue(r.out().contains("latency_us") && r.out().contains("pinned_MiB"), r.out());
    }

    @Test
    void runTakesAnApplicationWithoutMessageSizes() throws Exception {
        Result r = run("run", "titanium-app", "--policy", "firehose", "--profile", "firehose-myrinet", "--set",
                "app=bitonic", "--set", "problem_scale=0.001", "--format", "json");
        assertEquals(0, r.code(), r.err());
        JsonNode row = new ObjectMapper().readTree(r.out()).get(0);
        assertEquals("bitonic", row.get("app").asText());
        long perStep = Math.round(44_271 * 0.001); // one put per integer of a node's share
        assertEquals(6 * 8 * perStep, row.get("puts_total").asLong());
        assertEquals(row.get("puts_total").asLong(), row.get("puts_handshake").asLong()
                + row.get("puts_onesided").asLong());
        assertTrue(row.get("verified").asBoolean());
        assertEquals(2, run("run", "titanium-app", "--set", "app=fft").code());
    }
}
