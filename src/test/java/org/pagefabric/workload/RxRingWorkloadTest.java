package org.pagefabric.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;

/** The IOTLB wall's receive rings: buffers per page, the walk slots' bound, and 2 MiB mappings. */
class RxRingWorkloadTest {
    private static Map<String, Object> run(String iommu, String thp, long mtu, double offered, Map<String, String> more) {
        Map<String, String> set = new HashMap<>(more);
        set.put("nic.iommu", iommu);
        set.put("os.thp", thp);
        Profile p = ProfileRegistry.load("iotlbwall-icelake-cx6").withOverrides(set, "test");
        Map<String, Object> row = PointRun.run(p, "pin-all", WorkloadRegistry.standard().byName("rx-ring"),
                Map.of("mtu_B", mtu, "iterations", 6000L, "offered_Gbps", offered), 1);
        assertEquals(true, row.get("verified"), row.toString());
        return row;
    }

    private static double gbps(Map<String, Object> row) {
        return (Double) row.get("throughput_Gbps");
    }

    @Test
    void mlx5sBufferRuleGivesTwoBuffersPerPageAtMtu1500AndOneAt3690() {
        assertEquals(2048, RxRingWorkload.bufferBytes(1500));
        assertEquals(2048, RxRingWorkload.bufferBytes(1642));
        assertEquals(4096, RxRingWorkload.bufferBytes(1643));
        assertEquals(4096, RxRingWorkload.bufferBytes(3690));
        assertEquals(1024, RxRingWorkload.bufferBytes(576));
    }

    @Test
    void withoutTheIommuTheLineIsTheBoundAtTheSourcesApplicationLineRate() {
        // 200 Gb/s x 1448 / 1538: the source's 'theoretical maximum of 188 Gbps'
        assertEquals(188.3, gbps(run("false", "never", 1500, 200, Map.of())), 0.5);
        assertEquals(0.0, (Double) run("false", "never", 1500, 200, Map.of()).get("iotlb_misses_per_MiB"));
    }

    @Test
    void fourKibMappingsMissOncePerPageOfBuffers() {
        // 2^20 / 1448 packets per MiB, two to a 4 KiB page at MTU 1500, one per page at MTU 3690
        assertEquals(362.1, (Double) run("true", "never", 1500, 100, Map.of()).get("iotlb_misses_per_MiB"), 4);
        assertEquals(288.2, (Double) run("true", "never", 3690, 100, Map.of()).get("iotlb_misses_per_MiB"), 3);
    }

    @Test
    void belowTheWallThroughputFollowsTheOfferedRateAndAboveItTheWalkSlotsBoundIt() {
        assertEquals(100, gbps(run("true", "never", 1500, 100, Map.of())), 0.5);
        double one = gbps(run("true", "never", 1500, 200, Map.of("iommu.walk.concurrent", "1")));
        double two = gbps(run("true", "never", 1500, 200, Map.of("iommu.walk.concurrent", "2")));
        // a slot walks 4 x 70 ns per miss, and every other packet misses: 1448 B x 2 / 280 ns per slot
        assertEquals(82.7, one, 1.5);
        assertEquals(2.0, two / one, 0.05);
    }

    @Test
    void twoMibMappingsCoverEachQueuesRingWithOneEntry() {
        Map<String, Object> row = run("true", "always", 1500, 200, Map.of());
        assertEquals(2048L, row.get("page_KiB"));
        assertTrue((Double) row.get("iotlb_misses_per_MiB") < 5, row.toString());
        assertEquals(gbps(run("false", "never", 1500, 200, Map.of())), gbps(row), 0.5);
    }
}
