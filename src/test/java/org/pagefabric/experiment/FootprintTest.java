package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The footprint model covers the live heap measured for points of the heaviest workloads (docs/PERFORMANCE.md). */
class FootprintTest {
    private static long estimateMiB(String id, Map<String, String> sets) {
        ExperimentRunner r = new ExperimentRunner(SpecReader.bundled(id), new ExperimentRunner.Options(1, false, false, sets));
        return Footprint.estimate(r.spec().workload(), r.points().get(0)) >> 20;
    }

    private static void covers(long measuredMiB, String id, Map<String, String> sets) {
        long e = estimateMiB(id, sets);
        // at least what was measured, and not so much more that admission serializes for nothing
        assertTrue(e >= measuredMiB && e <= 2 * measuredMiB + 32, id + " " + sets + ": estimate " + e
                + " MiB for a measured " + measuredMiB + " MiB");
    }

    @Test
    void theEstimatesCoverTheMeasuredPoints() {
        covers(115, "aa.fig7a", Map.of("processes", "256"));
        covers(467, "aa.fig7a", Map.of("processes", "1024"));
        covers(37, "aa.fig7a", Map.of("iterations", "1000", "processes", "128", "processes_per_node", "4"));
        covers(524, "aa.fig8", Map.of("processes", "64", "data_MiB", "256"));
        covers(1059, "part.fig7", Map.of("size_B", "1073741824"));
        covers(264, "part.fig7", Map.of("size_B", "268435456"));
        covers(13, "omx.table2", Map.of());
    }
}
