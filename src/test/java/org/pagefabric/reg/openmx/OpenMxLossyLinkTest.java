package org.pagefabric.reg.openmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.Statistic;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.StandardParameters;
import org.pagefabric.workload.WorkloadRegistry;

/**
 * On a lossy link the transport repeats pull replies whose acknowledgement was lost, sometimes
 * after the receiver had the data and notified the sender: the source pages stay pinned until
 * every reply is acknowledged, so each repeat is read from them, and the transfer verifies.
 */
class OpenMxLossyLinkTest {
    @Test
    void aRepeatedPullReplyAfterTheNotifyCarriesNoStaleRead() {
        var profile = ProfileRegistry.load("default").withOverrides(Map.of("link.loss", "0.05"), "test");
        Map<String, Object> row = PointRun.run(profile, "openmx-overlap", WorkloadRegistry.standard().byName("pingpong"),
                65536, 20, 1);
        assertEquals(true, row.get("verified"));
        assertTrue(((Number) row.get("retransmissions")).longValue() > 0, "the link lost packets: " + row);
    }

    @ParameterizedTest
    @CsvSource({"openmx-pin,1", "openmx-pin,2", "openmx-pin,3", "openmx-overlap,1", "openmx-overlap,2",
            "openmx-overlap,3", "openmx-overlap,4", "openmx-overlap,5", "openmx-overlap,6"})
    void everyPullReplyIsReadFromPinnedPages(String policy, long seed) {
        var profile = ProfileRegistry.load("openmx-xeon5460").withOverrides(Map.of("link.loss", "0.05"), "test");
        var started = PointRun.start(profile, policy, WorkloadRegistry.standard().byName("pingpong"),
                Map.of(StandardParameters.SIZE, 65536L, StandardParameters.ITERATIONS, 5), seed);
        Map<String, Object> row = started.finish();
        assertEquals(true, row.get("verified"), row.toString());
        long unpinnedReads = 0;
        for (Statistic s : started.simulator().statistics().all()) {
            if (s instanceof Counter c && s.name().endsWith(".unpinnedReplyReads")) {
                unpinnedReads += c.value();
            }
        }
        assertEquals(0, unpinnedReads, "pull replies sent after their source was unpinned");
    }
}
