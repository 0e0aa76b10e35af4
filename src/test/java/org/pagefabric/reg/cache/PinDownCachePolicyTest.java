package org.pagefabric.reg.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadRegistry;

/** The policy around the caches: remote keys from the target's cache, references given back after completion. */
class PinDownCachePolicyTest {
    private static final Profile PROFILE = ProfileRegistry.load("default");

    @Test
    void repeatedWritesHitBothCachesAndEveryReferenceIsGivenBack() {
        Simulator sim = new Simulator(3);
        PinDownCache policy = new PinDownCache(PROFILE, MonitorKind.MMU);
        Workload w = WorkloadRegistry.standard().byName("latency");
        Map<String, Object> params = w.resolve(Map.of("size_B", 8192, "iterations", 10));
        Job job = new Job(sim, PROFILE, 2, w.segmentBytes(params), policy);
        Workload.Run run = w.start(job, params, sim.statistics().latency("lat", "latency"));
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        assertTrue(run.verified());
        for (Rank r : job.ranks()) {
            RegistrationCache c = policy.cache(r.endpoint());
            CacheStatistics s = c.statistics();
            assertEquals(1, s.registrations(), "rank " + r.id() + ": one registration, then hits");
            assertEquals(s.gets() - 1, s.hits());
            assertEquals(s.gets(), s.puts(), "rank " + r.id() + ": every reference came back");
            assertEquals(1, c.unused().size());
            assertEquals(2 * Kernel.PAGE_SIZE, policy.pinnedBytes(r.endpoint()));
        }
        assertTrue(policy.cache(job.rank(1).endpoint()).statistics().gets() > 10, "the target was asked for each remote key");
    }
}
