package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The grid key {@code profile}: one sweep over whole profiles. */
class ProfileGridTest {
    private static String spec(String profiles) {
        return """
                id: test.profiles
                title: pinning cost per host
                workload: pin-cost
                policies: [openmx-pin]
                profile: openmx-xeon5460
                grid:
                  profile: %s
                  pages: [1, 64]
                  iterations: 2
                  fit_max_pages: 16
                metrics: [pin_us, pin_per_page_ns]
                plot: {x: pages, y: pin_us, series: profile}
                """.formatted(profiles);
    }

    @Test
    void eachPointRunsOnItsProfileAndTheRowsSayWhich() {
        ExperimentSpec s = SpecReader.parse("t.yaml", spec("[openmx-opteron265, openmx-xeon5460]"), null);
        assertEquals(ExperimentSpec.AxisKind.PROFILE_NAME, s.axis("profile").kind());
        assertEquals("profile", s.plot().series());
        List<ExperimentPoint> points = Grid.expand(s);
        assertEquals(4, points.size());
        assertEquals("openmx-opteron265", points.get(0).profile().name());
        assertEquals("openmx-xeon5460", points.get(3).profile().name());
        ExperimentResult r = ExperimentRunner.run(s, new ExperimentRunner.Options(2, false, false, Map.of()));
        List<Map<String, Object>> rows = r.rows();
        assertEquals(List.of("openmx-opteron265", "openmx-opteron265", "openmx-xeon5460", "openmx-xeon5460"),
                rows.stream().map(x -> x.get("profile")).toList());
        assertNotEquals(rows.get(0).get("pin_per_page_ns"), rows.get(2).get("pin_per_page_ns"),
                "the hosts' per-page costs differ, so the fits do");
        assertEquals(rows.get(0).get("pin_per_page_ns"), rows.get(1).get("pin_per_page_ns"));
    }

    @Test
    void setAndProfileParametersApplyOnTopOfTheSweptProfile() {
        ExperimentSpec s = SpecReader.parse("t.yaml", spec("[openmx-opteron265, openmx-xeon5460]"), null);
        ExperimentSpec one = Grid.effective(s, false, Map.of("profile", "openmx-xeon5435", "os.pin.per_page", "1 us",
                "os.unpin.per_page", "0 ns"));
        List<ExperimentPoint> points = Grid.expand(one);
        assertEquals(2, points.size());
        assertTrue(points.get(0).profile().name().contains("openmx-xeon5435") || points.get(0).profile().name()
                .equals("openmx-xeon5435"), points.get(0).profile().name());
        Map<String, Object> row = new ExperimentRunner(one, new ExperimentRunner.Options(1, false, false, Map.of()))
                .run().rows().get(0);
        assertEquals(1000.0, (Double) row.get("pin_per_page_ns"), 1e-3);
    }

    @Test
    void anUnknownProfileIsNamedWithTheValidOnes() {
        SpecException e = assertThrows(SpecException.class,
                () -> SpecReader.parse("t.yaml", spec("[openmx-xeon5460, openmx-pentium]"), null));
        assertTrue(e.getMessage().contains("openmx-pentium"), e.getMessage());
        assertTrue(e.getMessage().contains("openmx-opteron265"), "lists the valid profiles: " + e.getMessage());
        assertTrue(e.getMessage().contains("t.yaml"), e.getMessage());
        assertTrue(e.getMessage().contains("grid.profile"), e.getMessage());
    }

    @Test
    void aProfilePathIsRelativeToTheSpec(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("slow.yaml"), """
                name: slow-host
                description: a slow host
                extends: openmx-xeon5460
                parameters:
                  os.pin.per_page: {value: 2, unit: us, source: "assumed: test host"}
                  os.unpin.per_page: {value: 0, unit: ns, source: "assumed: test host"}
                """);
        ExperimentSpec s = SpecReader.parse(dir.resolve("t.yaml").toString(), spec("[slow.yaml, openmx-xeon5460]"), dir);
        ExperimentResult r = ExperimentRunner.run(s, new ExperimentRunner.Options(1, false, false, Map.of()));
        assertEquals("slow-host", r.rows().get(0).get("profile"));
        assertEquals(2000.0, (Double) r.rows().get(0).get("pin_per_page_ns"), 1e-3);
        SpecException missing = assertThrows(SpecException.class,
                () -> SpecReader.parse("t.yaml", spec("[nothere.yaml]"), dir));
        assertTrue(missing.getMessage().contains("nothere.yaml"), missing.getMessage());
    }
}
