package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.config.ResolvedSetting;
import org.pagefabric.config.SourceCitation;

/** {@code pagefabric fit} end to end: one parameter on one published number, and what it refuses. */
class FitCommandTest {
    private static final String SPEC = """
            id: test.fit
            title: Latency fit
            workload: latency
            policies: [pin-all]
            profile: default
            seed: 1
            repetitions: 1
            grid:
              size_B: [8, 65536]
              iterations: 3
            metrics: [latency_us]
            plot: {x: size_B, y: latency_us, series: policy, logx: true}
            reference:
              - {id: small, series: pin-all, x: 8, metric: latency_us, value: 6.0}
              - {id: hidden, series: pin-all, x: 65536, metric: latency_us, value: withheld}
              - {id: big, series: pin-all, x: 65536, metric: latency_us, value: 30, kind: approximate}
            """;

    @Test
    void fitsOneParameterOnItsTargetAndWritesAProfileNamingIt(@TempDir Path dir) throws Exception {
        Path spec = dir.resolve("fit.yaml");
        Files.writeString(spec, SPEC);
        Path out = dir.resolve("fitted.yaml");
        CliTest.Result r = CliTest.run("fit", spec.toString(), "--param", "link.latency=0.1us..10us", "--target", "small",
                "--out", out.toString(), "--threads", "1");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("within"), r.out());
        Profile p = ProfileRegistry.loadFile(out);
        ResolvedSetting s = p.settings().stream().filter(x -> x.parameter().name().equals("link.latency")).findFirst()
                .orElseThrow();
        assertEquals(SourceCitation.Kind.FITTED, s.citation().kind());
        assertEquals("test.fit#small", s.citation().calibrationTarget());
        // The default link latency (100 ns) gives far less than 6 us end to end: the fit must raise it.
        assertTrue(s.canonical().doubleValue() > 100_000, s.written());
        CliTest.Result again = CliTest.run("fit", spec.toString(), "--param", "link.latency=0.1us..10us", "--target",
                "small", "--out", out.toString(), "--threads", "1");
        assertEquals(0, again.code(), "a profile fit wrote is replaced: " + again.err());
    }

    @Test
    void refusesWithheldTargetsAndUnmatchedCounts(@TempDir Path dir) throws Exception {
        Path spec = dir.resolve("fit.yaml");
        Files.writeString(spec, SPEC);
        CliTest.Result withheld = CliTest.run("fit", spec.toString(), "--param", "link.latency=0.1us..10us", "--target",
                "hidden");
        assertEquals(2, withheld.code());
        assertTrue(withheld.err().startsWith("pagefabric fit: --target hidden: the seed withholds this value; withheld values are never"
                + " calibrated on"), withheld.err());
        CliTest.Result ambiguous = CliTest.run("fit", spec.toString(), "--param", "link.latency=0.1us..10us");
        assertEquals(2, ambiguous.code());
        assertTrue(ambiguous.err().startsWith("pagefabric fit: --target: test.fit publishes 2 numbers; name the one to fit on by its id"
                + " (small, big)"), ambiguous.err());
        CliTest.Result two = CliTest.run("fit", spec.toString(), "--param", "link.latency=0.1us..10us", "--param",
                "switch.hop_latency=10ns..900ns", "--target", "small");
        assertEquals(2, two.code());
        assertTrue(two.err().startsWith("pagefabric fit: each fitted parameter needs its own target: 2 --param, 1 --target"), two.err());
        Path foreign = Files.writeString(dir.resolve("notes.txt"), "mine");
        CliTest.Result overwrite = CliTest.run("fit", spec.toString(), "--param", "link.latency=0.1us..10us", "--target",
                "small", "--out", foreign.toString());
        assertEquals(2, overwrite.code(), overwrite.err());
        assertTrue(overwrite.err().startsWith("pagefabric fit: --out " + foreign + ": exists and was not written by"),
                overwrite.err());
        assertEquals("mine", Files.readString(foreign), "a file fit did not write is never replaced");
    }
}
