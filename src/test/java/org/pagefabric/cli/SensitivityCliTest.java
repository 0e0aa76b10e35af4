package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pagefabric sensitivity} end to end on a cheap latency experiment: a claim that rests on
 * the costs is fragile and names a parameter it hinges on, a loose bound is robust, withheld
 * numbers stay out, the bands do not depend on the thread count, {@code reproduce --sensitivity}
 * shows them, and bad input is one line with exit code 2.
 */
class SensitivityCliTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A spec whose tight claim sits on our nominal latency, so that plausible costs turn it. */
    private static Path spec(Path dir) throws Exception {
        CliTest.Result nominal = CliTest.run("run", "latency", "--policy", "pin-all", "--sizes", "8", "--iterations", "3",
                "--format", "json");
        assertEquals(0, nominal.code(), nominal.err());
        double ours = JSON.readTree(nominal.out()).get(0).get("latency_us").asDouble();
        Path spec = dir.resolve("sens.yaml");
        Files.writeString(spec, """
                id: test.sensitivity
                title: Latency under varied costs
                workload: latency
                policies: [pin-all]
                profile: default
                seed: 1
                grid:
                  size_B: [8, 65536]
                  iterations: 3
                quick:
                  grid: {size_B: [8]}
                metrics: [latency_us]
                plot: {x: size_B, y: latency_us, series: policy, logx: true}
                reference:
                  - {series: pin-all, x: 8, metric: latency_us, value: 1000, kind: at_most, where: "a loose bound"}
                  - {series: pin-all, x: 8, metric: latency_us, value: %s, tolerance: [0.97, 1.03], reason: "a test's tight claim", where: "a claim on the costs"}
                  - {series: pin-all, x: 8, metric: latency_us, value: withheld, where: "never shown"}
                """.formatted(ours));
        return spec;
    }

    @Test
    void aTightClaimIsFragileOnANamedParameterALooseOneRobustAndTheBandsIgnoreThreads(@TempDir Path dir)
            throws Exception {
        Path spec = spec(dir);
        CliTest.Result one = CliTest.run("sensitivity", spec.toString(), "--quick", "--samples", "3", "--threads", "1",
                "--no-cache", "--out", dir.resolve("a").toString());
        assertEquals(0, one.code(), one.err());
        assertTrue(one.err().contains("1 + 2 x "), "the cost is said before the runs: " + one.err());
        JsonNode doc = JSON.readTree(dir.resolve("a/test.sensitivity/sensitivity.json").toFile());
        JsonNode bands = doc.get("bands");
        assertEquals(2, bands.size(), "the withheld number has no band: " + bands);
        JsonNode loose = bands.get(0);
        assertEquals("within", loose.get("verdict").asText());
        assertEquals("robust", loose.get("robustness").asText());
        JsonNode tight = bands.get(1);
        assertEquals("within", tight.get("verdict").asText());
        assertEquals("fragile", tight.get("robustness").asText());
        String[] band = tight.get("band").asText().split(" \\.\\. ");
        double ours = tight.get("ours").asDouble();
        assertTrue(Double.parseDouble(band[0]) < ours && ours < Double.parseDouble(band[1]), tight.toString());
        String hinge = tight.get("hinges_on").asText();
        boolean named = false;
        for (JsonNode p : doc.get("parameters")) {
            named |= hinge.contains(p.get("parameter").asText() + " low") || hinge.contains(p.get("parameter").asText()
                    + " high");
        }
        assertTrue(named, "the fragile verdict names a varied parameter's end: " + hinge);
        assertTrue(one.out().contains("fragile") && one.out().contains("robust"), one.out());
        assertFalse(one.out().contains("withheld"), one.out());

        CliTest.Result two = CliTest.run("sensitivity", spec.toString(), "--quick", "--samples", "3", "--threads", "2",
                "--no-cache", "--out", dir.resolve("b").toString());
        assertEquals(0, two.code(), two.err());
        assertArrayEquals(Files.readAllBytes(dir.resolve("a/test.sensitivity/sensitivity.json")),
                Files.readAllBytes(dir.resolve("b/test.sensitivity/sensitivity.json")), "same seed, same bands");
        assertEquals(one.out(), two.out());

        CliTest.Result reproduce = CliTest.run("reproduce", spec.toString(), "--quick", "--sensitivity", "--threads",
                "1", "--out", dir.resolve("a").toString());
        assertEquals(0, reproduce.code(), reproduce.err());
        assertTrue(reproduce.out().contains("fragile") && reproduce.out().contains("robustness"), reproduce.out());
        assertTrue(reproduce.err().contains("test.sensitivity: 1 fragile:"), reproduce.err());
        String report = Files.readString(dir.resolve("a/test.sensitivity/report.html"));
        assertTrue(report.contains("verdict-fragile"), "the report marks the fragile verdict");
    }

    @Test
    void reproduceSaysWhenNoStudyMatchesItsOptions(@TempDir Path dir) throws Exception {
        Path spec = spec(dir);
        CliTest.Result r = CliTest.run("reproduce", spec.toString(), "--quick", "--sensitivity", "--threads", "1",
                "--out", dir.toString());
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("no sensitivity result for these options"), r.err());
    }

    @Test
    void compareBandsShowEachPolicysBandAndWhetherTheRankingHolds() {
        CliTest.Result r = CliTest.run("compare", "latency", "--sizes", "64", "--iterations", "3", "--policy", "pin-all",
                "--policy", "bounce", "--bands", "--samples", "2", "--threads", "1");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("bands of latency_us over 2 joint samples"), r.out());
        assertTrue(r.out().contains("ranking at size_B 64: holds across the band")
                || r.out().contains("ranking at size_B 64: the order changes"), r.out());
        assertTrue(r.err().contains("compare --bands: "), "the cost is said first: " + r.err());
        CliTest.Result bad = CliTest.run("compare", "latency", "--bands", "--samples", "0");
        assertEquals(2, bad.code(), bad.err());
    }

    @Test
    void badInputIsOneLineWithExitCodeTwo(@TempDir Path dir) throws Exception {
        for (String[] args : new String[][] {
                {"sensitivity", "no.such.experiment"},
                {"sensitivity", "odp.fault", "--samples", "-1", "--out", dir.toString()},
                {"sensitivity", "odp.fault", "--set", "no.such.key=1", "--out", dir.toString()}}) {
            CliTest.Result r = CliTest.run(args);
            assertEquals(2, r.code(), String.join(" ", args) + ": " + r.err());
            assertEquals(2, r.err().strip().lines().count(), "one line and a hint: " + r.err());
            assertFalse(r.err().contains("Exception"), r.err());
        }
        Path profile = dir.resolve("bad.yaml");
        Files.writeString(profile, "name: bad\ndescription: d\nparameters:\n  link.latency: {value: 100, unit: ns,"
                + " source: \"assumed: x\", range: {low: 120, high: 200, reason: r}}\n");
        CliTest.Result r = CliTest.run("run", "latency", "--profile", profile.toString(), "--sizes", "8");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains(profile + ":4: link.latency.range: 120 to 200 ns does not contain the value"
                + " 100 ns; valid: low <= 100 ns <= high"), r.err());
    }
}
