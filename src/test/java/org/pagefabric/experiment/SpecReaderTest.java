package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pagefabric.config.ParameterRegistry;

class SpecReaderTest {
    @Test
    void readsTheDocumentedExampleWithItsDefaults() {
        ExperimentSpec s = Specs.parse("""
                id: part.fig7
                title: RDMA write latency without page faults
                paper: "000"
                where: "Fig. 7"
                requires: []
                workload: latency
                policies: [pin-all]
                profile: part-forth
                seed: 1
                repetitions: 5
                grid:
                  size_B: [8, 64, 512, 4096, 16384, 65536, 262144, 1048576]
                  iterations: 20
                quick:
                  repetitions: 1
                  grid: {size_B: [8, 4096, 1048576], iterations: 5}
                metrics: [latency_us]
                plot: {x: size_B, y: latency_us, series: policy, logx: true, logy: false, title: "Latency vs size"}
                reference:
                  - {series: "Transfer-Only", x: 8, metric: latency_us, value: 4.1, where: "Fig. 7"}
                  - {series: "Touch-NoPres", x: 4096, metric: latency_us, value: withheld, where: "Fig. 7"}
                """);
        assertEquals("000", s.paper());
        assertTrue(s.runnable());
        assertEquals("part-forth", s.profile().name());
        assertEquals(8 * 5, Grid.expand(s).size());
        assertEquals(3, Grid.expand(s.quickened()).size());
        assertEquals(new ExperimentSpec.Plot("size_B", "latency_us", "policy", true, false, "Latency vs size"),
                s.plot());
        assertEquals(new ExperimentSpec.Reference("Transfer-Only", 8L, "latency_us", 4.1, "Fig. 7"),
                s.reference().get(0));
        assertTrue(s.reference().get(1).withheld());
    }

    @Test
    void plotDefaultsComeFromTheSpec() {
        ExperimentSpec s = Specs.parse("""
                id: t.plot
                title: Bandwidth
                workload: bandwidth
                policies: [pin-all]
                metrics: [bandwidth_MBps, latency_us]
                plot: {x: size_B}
                """);
        assertEquals(new ExperimentSpec.Plot("size_B", "bandwidth_MBps", "policy", false, false, "Bandwidth"),
                s.plot());
        assertNull(s.paper());
    }

    @Test
    void aProfilePathIsRelativeToTheSpecFile(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("profiles"));
        Files.writeString(dir.resolve("profiles/slow.yaml"), """
                name: slow
                description: a slower link
                extends: default
                parameters:
                  link.latency: {value: 9, unit: us, source: "assumed: a test profile"}
                """);
        Path spec = dir.resolve("exp.yaml");
        Files.writeString(spec, """
                id: t.path
                title: Profile path
                workload: latency
                policies: [pin-all]
                profile: profiles/slow.yaml
                """);
        ExperimentSpec s = SpecReader.read(spec);
        assertEquals("slow", s.profile().name());
        assertEquals(9_000_000L, s.profile().time(ParameterRegistry.find("link.latency").orElseThrow()));
        assertEquals(dir.resolve("profiles/slow.yaml").toAbsolutePath().normalize().toString(), s.profileRef());
        assertEquals(spec.toString(), s.file());
    }

    @Test
    void aBrokenProfileFileIsReportedAtItsOwnLine(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("bad.yaml"), """
                name: bad
                description: broken
                parameters:
                  link.latency: {value: fast, unit: us, source: "assumed: test"}
                """);
        SpecException e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class, () -> SpecReader.parse(
                "exp.yaml", "id: t\ntitle: t\nworkload: latency\npolicies: [pin-all]\nprofile: bad.yaml\n", dir));
        assertEquals("exp.yaml:5: profile: " + dir.resolve("bad.yaml") + ":4: link.latency.value: 'fast' is not a"
                + " number; write a decimal number such as 150, 2.33 or 1e-3", e.getMessage());
    }

    @Test
    void aSpecWithUnmetPrerequisitesIsReadForItsIdentityOnly() {
        // Its workload and policies need not exist: listing and refusing it must work all the same.
        ExperimentSpec s = Specs.parse("""
                id: part.fig9
                title: Small transfers with a fault
                paper: "000"
                where: "Fig. 9"
                requires: ["PART page-fault handling (issue 6)"]
                workload: fault-latency
                policies: [part-pio, part-pio-timeout]
                grid: {size_B: [8], timeout: ["100 us", "1 ms"]}
                """);
        assertEquals(false, s.runnable());
        assertEquals(List.of("PART page-fault handling (issue 6)"), s.requires());
        assertEquals(List.of("part-pio", "part-pio-timeout"), s.policies());
        assertNull(s.workload());
        assertTrue(s.grid().isEmpty());
    }

    @Test
    void aDesignCheckIsReadAndSaidInsteadOfWhere() {
        ExperimentSpec s = Specs.parse("""
                id: x.claim
                title: A design claim
                where: "the design's own claim"
                design_check: "no published measurement of this mechanism"
                workload: latency
                policies: [pin-all]
                """);
        assertEquals("no published measurement of this mechanism", s.designCheck());
        assertEquals("design check: no published measurement of this mechanism", s.checks());
        ExperimentSpec plain = Specs.parse("""
                id: x.plain
                title: Published
                where: "Table 1"
                workload: latency
                policies: [pin-all]
                """);
        assertNull(plain.designCheck());
        assertEquals("Table 1", plain.checks());
    }

    @Test
    void aSeedsExperimentIsNoDesignCheck() {
        SpecException e = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class, () -> Specs.parse("""
                id: part.x
                title: Seed
                paper: "000"
                design_check: "none"
                workload: latency
                policies: [pin-all]
                """));
        assertTrue(e.getMessage().contains("design_check"), e.getMessage());
        SpecException blank = org.junit.jupiter.api.Assertions.assertThrows(SpecException.class, () -> Specs.parse("""
                id: x.blank
                title: Blank
                design_check: " "
                workload: latency
                policies: [pin-all]
                """));
        assertTrue(blank.getMessage().contains("design_check"), blank.getMessage());
    }

    @Test
    void everyBundledSpecReads() {
        List<String> ids = SpecReader.bundledIds();
        int seeds = 0;
        for (String id : ids) {
            ExperimentSpec s = SpecReader.bundled(id);
            assertEquals(id, s.id());
            if (id.startsWith("x.")) {
                // beyond the seeds: no seed's figure to name, so where cites the sources instead
                assertNull(s.paper(), id + " is not a seed's experiment");
                assertTrue(s.where() != null && !s.where().isBlank(), id + " cites its sources in where");
                // a published number outside the seeds, or the reason none exists
                boolean published = s.reference().stream().anyMatch(r -> r.value() != null);
                assertTrue(published || s.designCheck() != null,
                        id + " compares no published number and is not marked design_check");
            } else {
                seeds++;
                assertTrue(s.paper() != null && s.where() != null, id + " names the seed and figure it reproduces");
            }
            assertTrue(s.runnable() || !s.requires().get(0).isBlank(), id);
        }
        assertEquals(29, seeds, "the seeds' experiments");
    }
}
