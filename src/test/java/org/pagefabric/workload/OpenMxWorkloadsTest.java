package org.pagefabric.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;

/** The Open-MX experiment workloads (seed 003 §4): pin-cost, multi-pingpong and mpi-app. */
class OpenMxWorkloadsTest {
    private static final Profile XEON = ProfileRegistry.load("openmx-xeon5460");

    @Test
    void pinCostFitRecoversTheKernelsBaseAndPerPageCosts() {
        // inputs of this test (not seed values): pin 2 us + 300 ns/page, unpin 0.5 us + 50 ns/page
        Profile p = XEON.withOverrides(Map.of("os.pin.base", "2 us", "os.pin.per_page", "300 ns", "os.unpin.base",
                "0.5 us", "os.unpin.per_page", "50 ns"), "test");
        Map<String, Object> row = PointRun.run(p, "openmx-pin", WorkloadRegistry.standard().byName("pin-cost"),
                Map.of("pages", 64, "iterations", 3, "fit_max_pages", 256), 1);
        assertEquals(true, row.get("verified"));
        assertEquals(2.5, (Double) row.get("pin_base_us"), 1e-3);
        assertEquals(350.0, (Double) row.get("pin_per_page_ns"), 1e-3);
        assertEquals(2.5 + 64 * 0.35, (Double) row.get("pin_us"), 1e-3);
        // the largest region's bytes over its time
        assertEquals(256 * 4096 / ((2.5 + 256 * 0.35) * 1e-6) / 1e9, (Double) row.get("pin_throughput_GBps"), 1e-2);
    }

    @Test
    void pinCostGrowsWithThePerPageCost() {
        double cheap = pinUs("100 ns");
        double dear = pinUs("400 ns");
        assertTrue(dear > cheap, cheap + " < " + dear);
    }

    private static double pinUs(String perPage) {
        Profile p = XEON.withOverrides(Map.of("os.pin.per_page", perPage), "test");
        return (Double) PointRun.run(p, "openmx-pin", WorkloadRegistry.standard().byName("pin-cost"),
                Map.of("pages", 128, "iterations", 2, "fit_max_pages", 16), 1).get("pin_us");
    }

    @Test
    void anOverloadedReceiveCoreCausesOverlapMisses() {
        Map<String, Object> calm = multi("spread", 0);
        Map<String, Object> loaded = multi("single-core", 60);
        assertEquals(true, calm.get("verified"));
        assertEquals(true, loaded.get("verified"), "dropped pull replies are recovered: every byte arrives");
        long calmMisses = (Long) calm.get("overlap_misses");
        long loadedMisses = (Long) loaded.get("overlap_misses");
        assertTrue(loadedMisses > calmMisses, calmMisses + " misses calm vs " + loadedMisses + " loaded");
        assertTrue((Double) loaded.get("overlap_miss_fraction") > 0);
        assertTrue((Long) loaded.get("retransmissions") > 0, "each miss is asked for again");
        assertTrue((Double) calm.get("handshake_rtt_us") > 0);
    }

    @Test
    void multiPingPongRunsOnePairPerProcessAndCountsNoMissesWithoutOverlap() {
        Map<String, Object> row = PointRun.run(XEON, "openmx-pin", WorkloadRegistry.standard().byName("multi-pingpong"),
                Map.of("size_B", 1 << 20, "iterations", 3, "processes_per_node", 3, "interrupts", "single-core",
                        "irq_load_pct", 60), 1);
        assertEquals(true, row.get("verified"));
        assertEquals(0L, row.get("overlap_misses"), "pinning before the pull never drops a packet");
        assertThrows(IllegalArgumentException.class, () -> WorkloadRegistry.standard().byName("multi-pingpong")
                .resolve(Map.of("interrupts", "everywhere")));
    }

    private static Map<String, Object> multi(String interrupts, int load) {
        return PointRun.run(XEON, "openmx-overlap", WorkloadRegistry.standard().byName("multi-pingpong"), Map.of("size_B", 1 << 20,
                "iterations", 5, "processes_per_node", 4, "interrupts", interrupts, "irq_load_pct", load), 1);
    }

    /** Messages per repetition of each pattern between 4 processes. */
    private static final Map<String, Integer> PER_REPETITION = Map.of("imb-sendrecv", 4, "imb-exchange", 8,
            "imb-bcast", 3, "imb-reduce", 3, "imb-allreduce", 8, "imb-reduce-scatter", 12, "imb-allgatherv", 12,
            // per IS iteration: allreduce (4 x log2 4) + two all-to-alls (4 x 3 each)
            "npb-is-c", 8 + 12 + 12);

    @ParameterizedTest
    @ValueSource(strings = {"imb-sendrecv", "imb-allgatherv", "imb-bcast", "imb-reduce", "imb-allreduce",
            "imb-reduce-scatter", "imb-exchange", "npb-is-c"})
    void everyApplicationDeliversEveryByteWithItsPatternsMessageCount(String app) {
        long size = 64 << 10;
        Map<String, Object> params = new LinkedHashMap<>(Map.of("app", app, "processes", 4, "problem_scale_pct", 1,
                "min_size_B", size, "max_size_B", size));
        for (String policy : List.of("openmx-pin", "openmx-overlap")) {
            Map<String, Object> row = PointRun.run(XEON, policy, WorkloadRegistry.standard().byName("mpi-app"), params, 1);
            assertEquals(true, row.get("verified"), app + " under " + policy);
            long reps = app.equals("npb-is-c") ? 10 : MpiAppWorkload.repetitions(size, 1);
            assertEquals(PER_REPETITION.get(app) * reps, row.get("messages"), app);
            assertTrue((Double) row.get("runtime_s") > 0);
        }
    }

    @Test
    void imbSizesArePowersOfTwoAndRepetitionsFollowImbsVolumeLimit() {
        assertEquals(List.of(1L, 2L, 4L), MpiAppWorkload.sizes(1, 4));
        assertEquals(List.of(4096L, 8192L), MpiAppWorkload.sizes(3000, 8192));
        assertEquals(1000, MpiAppWorkload.repetitions(1024, 100));
        assertEquals(10, MpiAppWorkload.repetitions(4L << 20, 100));
        assertEquals(1, MpiAppWorkload.repetitions(4L << 20, 1));
    }

    @Test
    void aLargerRunTakesLonger() {
        Map<String, Object> small = new LinkedHashMap<>(Map.of("app", "imb-allreduce", "problem_scale_pct", 1,
                "min_size_B", 1 << 20, "max_size_B", 1 << 20));
        Map<String, Object> large = new LinkedHashMap<>(small);
        large.put("problem_scale_pct", 5);
        double a = (Double) PointRun.run(XEON, "openmx-cache", WorkloadRegistry.standard().byName("mpi-app"), small, 1).get("runtime_s");
        double b = (Double) PointRun.run(XEON, "openmx-cache", WorkloadRegistry.standard().byName("mpi-app"), large, 1).get("runtime_s");
        assertTrue(b > a, a + " < " + b);
    }
}
