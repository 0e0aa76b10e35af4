package org.pagefabric.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;

/** The packet generator over the 002 §5.1 testbed, with and without the IOMMU on the NIC's path. */
class PktGenWorkloadTest {
    private static Map<String, Object> run(String iommu, long frame, long packets, long seed) {
        Profile p = ProfileRegistry.load("aa-gem5").withOverrides(Map.of("nic.iommu", iommu), "test");
        return PointRun.run(p, "pin-all", WorkloadRegistry.standard().byName("pktgen"),
                Map.of("size_B", frame, "iterations", packets), seed);
    }

    @ParameterizedTest
    @CsvSource({"false,64,1", "true,64,1", "false,1518,2", "true,1518,2", "true,512,3", "false,512,3"})
    void everyFrameArrivesIntact(String iommu, long frame, long seed) {
        Map<String, Object> row = run(iommu, frame, 700, seed);
        assertEquals(true, row.get("verified"), row.toString());
        assertEquals(700L, row.get("packets"));
    }

    @ParameterizedTest
    @CsvSource({"64", "256", "1518"})
    void theIommuNeverMakesTheGeneratorFaster(long frame) {
        double without = (Double) run("false", frame, 1000, 1).get("bandwidth_MBps");
        double with = (Double) run("true", frame, 1000, 1).get("bandwidth_MBps");
        assertTrue(with <= without, "e-iommu " + with + " MB/s, no-iommu " + without + " MB/s");
    }
}
