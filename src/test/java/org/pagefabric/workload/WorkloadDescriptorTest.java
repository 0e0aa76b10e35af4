package org.pagefabric.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.Capability;

/** A workload's declaration: typed values, defaults, what derives from it, and the errors a bad spec meets. */
class WorkloadDescriptorTest {
    private static final WorkloadDescriptor HALO = WorkloadDescriptor.of("halo", "a test halo exchange")
            .ranks(2).ranks(p -> p.intValue("processes")).nodes(p -> 2)
            .parameters(StandardParameters.size(8), StandardParameters.iterations(),
                    WorkloadParameter.integer("processes", 4, "", "exchanging processes", 2, 64),
                    WorkloadParameter.decimal("overlap", 0.25, "", "share of compute overlapped", 0, 1),
                    WorkloadParameter.flag("eager", true, "send small halos eagerly"),
                    WorkloadParameter.choice("shape", "how ranks are laid out", "ring", "grid"))
            .keyword("processes", "few", 2L)
            .check(p -> {
                if (p.is("shape", "grid") && p.intValue("processes") % 2 != 0) {
                    throw new IllegalArgumentException("shape grid needs an even processes, not " + p.intValue("processes"));
                }
            })
            .lowerIsBetter("latency_us")
            .requires(p -> p.flag("eager") ? Set.of(Capability.SEND_RECEIVE) : Set.of(Capability.PUT))
            .build();

    @Test
    void defaultsResolveToTheirStoredTypesAndReadTyped() {
        Map<String, Object> v = HALO.resolve(Map.of());
        assertEquals(List.of("size_B", "iterations", "processes", "overlap", "eager", "shape"), List.copyOf(v.keySet()));
        assertInstanceOf(Long.class, v.get("processes"));
        assertInstanceOf(Double.class, v.get("overlap"));
        Params p = HALO.values(v);
        assertEquals(8L, p.longValue("size_B"));
        assertEquals(20, p.intValue("iterations"));
        assertEquals(4, p.intValue("processes"));
        assertEquals(0.25, p.doubleValue("overlap"));
        assertTrue(p.flag("eager"));
        assertEquals("ring", p.choice("shape"));
        // a decimal written as a whole number is stored as a double, so a row prints it as 1.0
        assertEquals(1.0, HALO.values(HALO.resolve(Map.of("overlap", 1))).doubleValue("overlap"));
        assertInstanceOf(Double.class, HALO.resolve(Map.of("overlap", 1)).get("overlap"));
    }

    @Test
    void whatDependsOnValuesDerivesFromTheDeclaration() {
        Params small = HALO.values(HALO.resolve(Map.of("processes", 6, "eager", false)));
        assertEquals(6, HALO.ranks(small));
        assertEquals(2, HALO.nodes(small));
        assertEquals(2, HALO.ranks());
        // no segment declared: one message of size_B, at least a page
        assertEquals(Kernel.PAGE_SIZE, HALO.segmentBytes(small));
        assertEquals(3L * Kernel.PAGE_SIZE, HALO.segmentBytes(HALO.values(HALO.resolve(Map.of("size_B", "12 KiB")))));
        assertEquals(Set.of(Capability.PUT), HALO.requires(small));
        assertEquals(Set.of(Capability.SEND_RECEIVE), HALO.requires(HALO.values(HALO.resolve(Map.of()))));
        assertEquals(PointRun.METRICS, HALO.metrics());
        assertFalse(HALO.higherIsBetter());
    }

    @Test
    void aKeywordStandsForItsValueAndChecksAcrossParametersRun() {
        assertEquals(2L, HALO.resolve(Map.of("processes", "few")).get("processes"));
        assertEquals(2L, HALO.coerce(HALO.parameter("processes"), " few "));
        assertEquals("shape grid needs an even processes, not 5", assertThrows(IllegalArgumentException.class,
                () -> HALO.resolve(Map.of("shape", "grid", "processes", 5))).getMessage());
        assertEquals(6L, HALO.resolve(Map.of("shape", "grid", "processes", 6)).get("processes"));
    }

    @Test
    void aBadSpecValueGetsOneLineNamingTheParameterAndWhatIsValid() {
        assertEquals("workload 'halo' has no parameter 'procs'; its parameters: size_B, iterations, processes, overlap,"
                        + " eager, shape",
                assertThrows(IllegalArgumentException.class, () -> HALO.resolve(Map.of("procs", 4))).getMessage());
        assertEquals("processes: 'many' is not a whole number; a whole number from 2 to 64, or few",
                assertThrows(IllegalArgumentException.class, () -> HALO.resolve(Map.of("processes", "many"))).getMessage());
        assertEquals("processes: 65 is out of range; a whole number from 2 to 64, or few",
                assertThrows(IllegalArgumentException.class, () -> HALO.resolve(Map.of("processes", 65))).getMessage());
        assertEquals("iterations: 'many' is not a whole number; a whole number from 1 to 2147483583",
                assertThrows(IllegalArgumentException.class, () -> HALO.resolve(Map.of("iterations", "many"))).getMessage());
        assertEquals("eager: 'yes' is not a boolean; valid values: true, false",
                assertThrows(IllegalArgumentException.class, () -> HALO.resolve(Map.of("eager", "yes"))).getMessage());
        assertEquals("shape: 'torus' is not valid; valid values: ring, grid",
                assertThrows(IllegalArgumentException.class, () -> HALO.resolve(Map.of("shape", "torus"))).getMessage());
        assertEquals("overlap: 'half' is not a number; a number from 0 to 1",
                assertThrows(IllegalArgumentException.class, () -> HALO.resolve(Map.of("overlap", "half"))).getMessage());
    }

    @Test
    void readingAnUndeclaredNameOrTheWrongTypeIsRefusedByName() {
        Params p = HALO.values(HALO.resolve(Map.of()));
        assertTrue(assertThrows(IllegalStateException.class, () -> p.longValue("window")).getMessage()
                .contains("reads parameter 'window', which it does not declare"));
        assertEquals("workload 'halo' reads parameter 'overlap' as integer but declares it decimal",
                assertThrows(IllegalStateException.class, () -> p.intValue("overlap")).getMessage());
        assertEquals("workload 'halo' reads parameter 'shape' as boolean but declares it choice",
                assertThrows(IllegalStateException.class, () -> p.flag("shape")).getMessage());
        Map<String, Object> missing = new LinkedHashMap<>(HALO.resolve(Map.of()));
        missing.remove("processes");
        assertThrows(IllegalStateException.class, () -> HALO.values(missing).intValue("processes"));
    }

    @Test
    void aDeclarationThatContradictsItselfIsRefusedWhenBuilt() {
        assertThrows(IllegalArgumentException.class, () -> WorkloadDescriptor.of("x", "no size, no segment")
                .parameters(StandardParameters.iterations()).lowerIsBetter("latency_us").build());
        assertThrows(IllegalArgumentException.class, () -> WorkloadDescriptor.of("x", "judged by no column")
                .parameters(StandardParameters.size(8)).lowerIsBetter("speed_x").build());
        assertThrows(IllegalArgumentException.class, () -> WorkloadDescriptor.of("x", "twice")
                .parameters(StandardParameters.size(8), StandardParameters.size(16)).lowerIsBetter("latency_us").build());
        assertThrows(IllegalArgumentException.class, () -> WorkloadDescriptor.of("x", "keyword for nothing")
                .parameters(StandardParameters.size(8)).keyword("onload", "best", 0L).lowerIsBetter("latency_us")
                .build());
    }

    /** Every bundled workload's defaults resolve, and everything derived from them can be asked. */
    @Test
    void everyBundledWorkloadDerivesItsDeclarationsFromItsDefaults() {
        for (Workload w : WorkloadRegistry.standard().all()) {
            assertTrue(w.metrics().contains(w.mainMetric()), w.name());
            if (w.name().equals("trace")) {
                // a trace's declarations come from the trace it names; none is named by default
                assertEquals("trace: name the trace to replay, e.g. --set trace=docs/examples/halo.trace.jsonl"
                        + " (docs/TRACES.md)", assertThrows(IllegalArgumentException.class,
                        () -> w.resolve(Map.of())).getMessage());
                continue;
            }
            Map<String, Object> v = w.resolve(Map.of());
            assertTrue(w.segmentBytes(v) >= Kernel.PAGE_SIZE, w.name());
            assertTrue(w.ranks(v) >= 1 && w.nodes(v) >= 1 && w.nodes(v) <= w.ranks(v), w.name());
            w.requires(v);
        }
        Workload dht = WorkloadRegistry.standard().byName("dht-insert");
        assertFalse(dht.connectsRanks());
        assertEquals(0L, dht.resolve(Map.of("onload_cores", "best")).get("onload_cores"));
        assertEquals(0.05, dht.resolve(Map.of()).get("collision_rate"));
        // 64 processes, 32 per node
        assertEquals(2, dht.ranks(dht.resolve(Map.of())));
        assertEquals(8, dht.ranks(dht.resolve(Map.of("processes", 256))));
        Workload put = WorkloadRegistry.standard().byName("alloc-reuse");
        assertEquals(Set.of(Capability.GET), put.requires(put.resolve(Map.of("rdma_read", true))));
        assertEquals(Set.of(Capability.PUT), put.requires(put.resolve(Map.of())));
        Workload pingpong = WorkloadRegistry.standard().byName("pingpong");
        assertEquals(2L * 65536, pingpong.segmentBytes(pingpong.resolve(Map.of("size_B", 65536))));
    }
}
