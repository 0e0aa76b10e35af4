package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.config.SourceCitation;

class GridTest {
    private static final String TWO_AXES = """
            id: test.grid
            title: Two axes
            workload: bandwidth
            policies: [pin-all]
            seed: 10
            repetitions: 2
            grid:
              link.loss: ["0", "1%", "0.02"]
              size_B: [8, 4 KiB]
            plot: {x: link.loss, y: bandwidth_MBps}
            """;

    @Test
    void firstAxisVariesSlowestThenPoliciesThenRepetitions() {
        ExperimentSpec spec = Specs.parse(TWO_AXES);
        List<ExperimentPoint> points = Grid.expand(spec);
        assertEquals(3 * 2 * 2, points.size());
        List<String> labels = points.stream().map(ExperimentPoint::label).toList();
        assertEquals(List.of(
                "link.loss=0 size_B=8 policy=pin-all rep=0", "link.loss=0 size_B=8 policy=pin-all rep=1",
                "link.loss=0 size_B=4096 policy=pin-all rep=0", "link.loss=0 size_B=4096 policy=pin-all rep=1",
                "link.loss=1% size_B=8 policy=pin-all rep=0", "link.loss=1% size_B=8 policy=pin-all rep=1",
                "link.loss=1% size_B=4096 policy=pin-all rep=0", "link.loss=1% size_B=4096 policy=pin-all rep=1",
                "link.loss=0.02 size_B=8 policy=pin-all rep=0", "link.loss=0.02 size_B=8 policy=pin-all rep=1",
                "link.loss=0.02 size_B=4096 policy=pin-all rep=0", "link.loss=0.02 size_B=4096 policy=pin-all rep=1"),
                labels);
        for (ExperimentPoint p : points) {
            assertEquals(points.indexOf(p), p.index());
            assertEquals(p.index() / 2, p.point());
            assertEquals(p.index() % 2, p.repetition());
            assertEquals(10 + p.repetition(), p.seed());
        }
    }

    @Test
    void profileAxesDerivedProfilesWithOverrideSources() {
        ExperimentSpec spec = Specs.parse(TWO_AXES);
        List<ExperimentPoint> points = Grid.expand(spec);
        var loss = ParameterRegistry.find("link.loss").orElseThrow();
        assertEquals(0.0, points.get(0).profile().probability(loss));
        assertEquals(0.01, points.get(4).profile().probability(loss));
        assertEquals(0.02, points.get(8).profile().probability(loss));
        assertEquals("override: test.yaml:8", points.get(4).profile().source(loss));
        assertEquals(SourceCitation.Kind.OVERRIDE, points.get(4).profile().setting(loss).citation().kind());
        // Repetitions of one grid point share its derived profile rather than re-deriving it.
        assertSame(points.get(4).profile(), points.get(5).profile());
        // The column of a probability has no unit; plot.x written as the key names that column.
        assertEquals("link.loss", spec.axis("link.loss").column());
        assertEquals("link.loss", spec.plot().x());
    }

    @Test
    void profileColumnsCarryTheCanonicalUnit() {
        ExperimentSpec spec = Specs.parse(TWO_AXES.replace("link.loss: [\"0\", \"1%\", \"0.02\"]",
                "transport.mtu: [1 KiB, 4 KiB]").replace("x: link.loss", "x: transport.mtu"));
        assertEquals("transport.mtu_B", spec.axis("transport.mtu").column());
        assertEquals("transport.mtu_B", spec.plot().x());
        assertEquals(List.of("experiment", "point", "repetition", "workload", "policy", "profile", "seed", "size_B",
                "iterations", "transport.mtu_B"), spec.parameterColumns());
    }

    @Test
    void quickReplacesAxesInPlaceAndRepetitions() {
        ExperimentSpec quick = Specs.parse(Specs.SMALL).quickened();
        assertEquals(1, quick.repetitions());
        assertEquals(List.of("size_B", "iterations"), quick.grid().stream().map(ExperimentSpec.Axis::key).toList());
        assertEquals(List.of(64L), quick.axis("size_B").values());
        assertEquals(List.of(3L), quick.axis("iterations").values());
        assertNull(quick.quick());
        assertEquals(1, Grid.expand(quick).size());
    }

    @Test
    void setOverridesAfterQuickAndAddsNewAxesAtTheEnd() {
        ExperimentSpec spec = Specs.parse(Specs.SMALL);
        Map<String, String> sets = new LinkedHashMap<>();
        sets.put("size_B", "1 MiB");
        sets.put("link.latency", "2 us");
        sets.put("seed", "99");
        sets.put("repetitions", "3");
        ExperimentSpec eff = Grid.effective(spec, true, sets);
        assertEquals(List.of(1L << 20), eff.axis("size_B").values());
        assertEquals(List.of("size_B", "iterations", "link.latency"),
                eff.grid().stream().map(ExperimentSpec.Axis::key).toList());
        assertEquals("link.latency_ps", eff.axis("link.latency").column());
        assertEquals(99, eff.seed());
        assertEquals(3, eff.repetitions());
        List<ExperimentPoint> points = Grid.expand(eff);
        assertEquals(3, points.size());
        var latency = ParameterRegistry.find("link.latency").orElseThrow();
        assertEquals(2_000_000L, points.get(0).profile().time(latency));
        assertEquals("override: --set", points.get(0).profile().source(latency));
        assertEquals(List.of(99L, 100L, 101L), points.stream().map(ExperimentPoint::seed).toList());
    }

    @Test
    void noGridIsOnePointPerPolicyAndRepetitionWithDefaults() {
        ExperimentSpec spec = Specs.parse("""
                id: test.nogrid
                title: Defaults
                workload: pingpong
                policies: [pin-all]
                """);
        assertEquals(1, spec.seed());
        assertEquals(1, spec.repetitions());
        assertEquals("default", spec.profileRef());
        assertEquals(List.of("latency_us"), spec.metrics());
        assertNull(spec.plot());
        List<ExperimentPoint> points = Grid.expand(spec);
        assertEquals(1, points.size());
        assertEquals("policy=pin-all rep=0", points.get(0).label());
        assertEquals(Map.of(), points.get(0).workloadValues());
    }
}
