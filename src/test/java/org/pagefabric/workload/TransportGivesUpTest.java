package org.pagefabric.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.Statistic;

/**
 * When the reliable transport gives up on a connection (its retry limit), a workload whose
 * processes then wait for what will never arrive ends with an unverified row, as one that checks
 * each completion does, not with a deadlock.
 */
class TransportGivesUpTest {
    @Test
    void pingpongAtTwentyPercentLossFailsWithTheRetryLimitNotADeadlock() {
        var profile = ProfileRegistry.load("default").withOverrides(Map.of("link.loss", "0.2"), "test");
        var started = PointRun.start(profile, "pin-all", WorkloadRegistry.standard().byName("pingpong"),
                Map.of(StandardParameters.SIZE, 65536L, StandardParameters.ITERATIONS, 5), 1);
        Map<String, Object> row = started.finish();
        assertEquals(false, row.get("verified"), row.toString());
        long gaveUp = 0;
        for (Statistic s : started.simulator().statistics().all()) {
            if (s instanceof Counter c && s.name().endsWith(".retryLimitFailures")) {
                gaveUp += c.value();
            }
        }
        assertTrue(gaveUp > 0, "a connection failed at its retry limit");
        assertTrue(SimProcess.waiting(started.simulator()).isEmpty(), "the waiting processes were ended");
    }
}
