package org.pagefabric.reg.openmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.WorkloadRegistry;

/**
 * On a lossy link the transport repeats pull replies whose acknowledgement was lost, sometimes
 * after the receiver had the data and the sender released the region: the repeat must not read
 * the released pages, and the transfer still verifies.
 */
class OpenMxLossyLinkTest {
    @Test
    void aRepeatedPullReplyAfterTheRegionIsReleasedCarriesNoStaleRead() {
        var profile = ProfileRegistry.load("default").withOverrides(Map.of("link.loss", "0.05"), "test");
        Map<String, Object> row = PointRun.run(profile, "openmx-overlap", WorkloadRegistry.standard().byName("pingpong"),
                65536, 20, 1);
        assertEquals(true, row.get("verified"));
        assertTrue(((Number) row.get("retransmissions")).longValue() > 0, "the link lost packets: " + row);
    }
}
