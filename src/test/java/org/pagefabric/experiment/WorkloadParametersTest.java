package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.reg.pin.PinEverything;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadParameter;
import org.pagefabric.workload.WorkloadRegistry;

/** The workloads' declared parameters, which spec grids and {@code --set} are checked against. */
class WorkloadParametersTest {
    @Test
    void everyWorkloadDeclaresSizeAndIterationsWithDocAndUnit() {
        for (Workload w : WorkloadRegistry.standard().all()) {
            if (w.parameter("size_B") == null) {
                // Applications (and rx-ring, whose packets are an MTU) have no message size: `pagefabric run` runs them
                // once per policy at their parameters.
                assertEquals(true, List.of("pin-cost", "mpi-app", "titanium-app", "lammps",
                        "access-counter", "logged-gets", "coral-sort", "trace", "multi-job",
                        "gas-read", "incast", "reg-pool", "rx-ring").contains(w.name()), w.name());
                continue;
            }
            if (w.name().equals("netperf")) {
                // A stream has no iterations: netperf sends `messages` messages of size_B.
                assertEquals(List.of("size_B", "messages"), w.parameterNames().subList(0, 2), w.name());
                continue;
            }
            // First, so `pagefabric run` can sweep them; a workload may declare more after them.
            assertEquals(List.of("size_B", "iterations"), w.parameterNames().subList(0, 2), w.name());
            WorkloadParameter size = w.parameter("size_B");
            assertEquals("B", size.unit());
            assertEquals("integer", size.typeName());
            assertEquals("message size in bytes", size.doc());
            assertEquals(20L, w.parameter("iterations").defaultValue());
        }
        assertEquals(65536L, WorkloadRegistry.standard().byName("bandwidth").parameter("size_B").defaultValue());
        assertEquals(8L, WorkloadRegistry.standard().byName("latency").parameter("size_B").defaultValue());
    }

    @Test
    void resolveFillsDefaultsCoercesAndRejects() {
        Workload w = WorkloadRegistry.standard().byName("latency");
        assertEquals(Map.of("size_B", 8L, "iterations", 20L), w.resolve(Map.of()));
        assertEquals(Map.of("size_B", 4096L, "iterations", 5L), w.resolve(Map.of("size_B", "4 KiB", "iterations", 5)));
        assertEquals(1L << 20, w.resolve(Map.of("size_B", "1MiB")).get("size_B"));
        assertEquals("workload 'latency' has no parameter 'window'; its parameters: size_B, iterations",
                assertThrows(IllegalArgumentException.class, () -> w.resolve(Map.of("window", 4))).getMessage());
        assertEquals("iterations: 0 is out of range; a whole number from 1 to 2147483583",
                assertThrows(IllegalArgumentException.class, () -> w.resolve(Map.of("iterations", 0))).getMessage());
        assertEquals("size_B: '1.5' is not a whole number; a whole number of B (or with a unit: KiB, MiB, GiB, KB, MB,"
                        + " GB) from 1 to 1073741824",
                assertThrows(IllegalArgumentException.class, () -> w.resolve(Map.of("size_B", 1.5))).getMessage());
    }

    @Test
    void flagParametersTakeTrueOrFalse() {
        WorkloadParameter f = WorkloadParameter.flag("warm", true, "warm the caches first");
        assertEquals(Boolean.FALSE, f.coerce("false"));
        assertEquals(Boolean.TRUE, f.coerce(true));
        assertEquals("'yes' is not a boolean; valid values: true, false",
                assertThrows(IllegalArgumentException.class, () -> f.coerce("yes")).getMessage());
    }

    @Test
    void pointRowIsIdentityThenParametersThenMetrics() {
        var profile = ProfileRegistry.load("default");
        Map<String, Object> row = PointRun.run(profile, PinEverything.NAME, WorkloadRegistry.standard().byName("pingpong"),
                Map.of("size_B", 64, "iterations", 2), 3);
        List<String> expected = new ArrayList<>(PointRun.IDENTITY);
        expected.addAll(List.of("size_B", "iterations"));
        expected.addAll(PointRun.METRICS);
        assertEquals(expected, List.copyOf(row.keySet()));
        assertEquals(64L, row.get("size_B"));
        assertEquals(true, row.get("verified"));
        // The size/iterations overload that `pagefabric run` uses gives the same row.
        assertEquals(row, PointRun.run(profile, PinEverything.NAME, WorkloadRegistry.standard().byName("pingpong"), 64, 2, 3));
    }
}
