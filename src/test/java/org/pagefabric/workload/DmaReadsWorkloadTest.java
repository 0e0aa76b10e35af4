package org.pagefabric.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;

/** pcie-bench's DMA reads on its Broadwell host: translation reach, walk slots and the data each read finds. */
class DmaReadsWorkloadTest {
    private static Map<String, Object> run(String iommu, String thp, long window, long outstanding,
            Map<String, String> more) {
        Map<String, String> set = new HashMap<>(more);
        set.put("nic.iommu", iommu);
        set.put("os.thp", thp);
        Profile p = ProfileRegistry.load("pciebench-bdw-nfp6000").withOverrides(set, "test");
        return PointRun.run(p, "pin-all", WorkloadRegistry.standard().byName("dma-reads"),
                Map.of("size_B", 64L, "iterations", 3000L, "window_B", window, "outstanding", outstanding), 1);
    }

    private static double gbps(Map<String, Object> row) {
        assertEquals(true, row.get("verified"), row.toString());
        return (Double) row.get("bandwidth_Gbps");
    }

    @Test
    void aWindowInsideTheIotlbsReachCostsNothingAndOnePastItMissesOnMostReads() {
        Map<String, Object> inside = run("true", "never", 64 * 4096L, 32, Map.of());
        Map<String, Object> past = run("true", "never", 64L << 20, 32, Map.of());
        assertTrue((Double) inside.get("iotlb_miss_pct") < 5, inside.toString());
        assertTrue((Double) past.get("iotlb_miss_pct") > 95, past.toString());
        double off = gbps(run("false", "never", 64 * 4096L, 32, Map.of()));
        // the first read of each of the 64 pages misses: about 2 % of 3000 reads
        assertEquals(off, gbps(inside), off * 0.05);
        assertTrue(gbps(past) < off / 2, past + " against " + off + " Gb/s without the IOMMU");
    }

    @Test
    void superpagesReachTheWholeWindow() {
        Map<String, Object> row = run("true", "always", 64L << 20, 32, Map.of());
        assertEquals(2048L, row.get("page_KiB"));
        // only the first read of each of the window's 32 superpages misses
        assertTrue((Double) row.get("iotlb_miss_pct") < 2, row.toString());
    }

    @Test
    void moreWalkSlotsRaiseTheMissBoundRate() {
        double two = gbps(run("true", "never", 64L << 20, 32, Map.of("iommu.walk.concurrent", "2")));
        double eight = gbps(run("true", "never", 64L << 20, 32, Map.of("iommu.walk.concurrent", "8")));
        assertEquals(4.0, eight / two, 0.4);
    }

    @Test
    void oneReadAtATimeTakesTheRoundTripPlusAWalkOnAMiss() {
        Map<String, Object> hit = run("false", "never", 8192, 1, Map.of());
        Map<String, Object> miss = run("true", "never", 64L << 20, 1, Map.of());
        assertEquals(600, (Double) hit.get("latency_ns"), 5);
        assertEquals(880, (Double) miss.get("latency_ns"), 10);
    }
}
