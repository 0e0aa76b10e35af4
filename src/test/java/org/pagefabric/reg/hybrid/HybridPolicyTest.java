package org.pagefabric.reg.hybrid;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.WorkloadRegistry;

/** Puts up to the threshold take the bounce buffers, longer ones the pin-down cache. */
class HybridPolicyTest {
    private static final Profile PROFILE = ProfileRegistry.resolve("default");

    private static Map<String, Object> point(Profile p, String policy, String workload, long size) {
        return PointRun.run(p, policy, WorkloadRegistry.standard().byName(workload), size, 10, 5);
    }

    private static double latency(Profile p, String policy, long size) {
        return ((Number) point(p, policy, "latency", size).get("latency_us")).doubleValue();
    }

    @Test
    void theDefaultThresholdIsEfasMaxMemcpySize() {
        assertEquals(4096, new HybridPolicy(PROFILE).threshold());
    }

    @Test
    void dataArrivesOnBothSidesOfTheThreshold() {
        for (String workload : new String[] {"latency", "bandwidth", "pingpong"}) {
            for (long size : new long[] {8, 4096, 4097, 65536, 1 << 20}) {
                assertEquals(true, point(PROFILE, HybridPolicy.NAME, workload, size).get("verified"), workload + " " + size);
            }
        }
    }

    @Test
    void upToTheThresholdItTimesAsBounceAboveItAsTheCache() {
        assertEquals(latency(PROFILE, HybridPolicy.COPYING, 4096), latency(PROFILE, HybridPolicy.NAME, 4096));
        assertEquals(latency(PROFILE, HybridPolicy.REGISTERING, 4097), latency(PROFILE, HybridPolicy.NAME, 4097));
        assertTrue(latency(PROFILE, HybridPolicy.COPYING, 4096) != latency(PROFILE, HybridPolicy.REGISTERING, 4096),
                "the halves must differ for the two checks above to tell them apart");
    }

    @Test
    void theThresholdComesFromTheProfile() {
        Profile wide = PROFILE.withOverrides(Map.of("hybrid.copy_threshold", "64 KiB"), "test");
        assertEquals(65536, new HybridPolicy(wide).threshold());
        assertEquals(latency(wide, HybridPolicy.COPYING, 65536), latency(wide, HybridPolicy.NAME, 65536));
        assertEquals(latency(wide, HybridPolicy.REGISTERING, 65537), latency(wide, HybridPolicy.NAME, 65537));
    }

    @Test
    void aCopiedPutPinsNothingBeyondTheBounceBuffersALongerOneRegistersItsBuffer() {
        long bounceOnly = pinnedAfterPut(4096, HybridPolicy.COPYING);
        assertEquals(bounceOnly, pinnedAfterPut(4096, HybridPolicy.NAME));
        long longer = pinnedAfterPut(4097, HybridPolicy.NAME);
        assertTrue(longer > bounceOnly, "a put of 4097 B registers its buffer: " + longer + " vs " + bounceOnly);
        assertEquals(longer - bounceOnly, pinnedAfterPut(4097, HybridPolicy.REGISTERING));
    }

    /** Bytes rank 0's policy holds pinned after one put of {@code size} bytes to rank 1. */
    private static long pinnedAfterPut(long size, String policy) {
        Simulator sim = new Simulator(1);
        Job job = new Job(sim, PROFILE, 2, 1 << 20, PolicyRegistry.standard().create(policy, PROFILE));
        Rank a = job.rank(0);
        Rank b = job.rank(1);
        boolean[] ok = {false};
        new SimProcess(sim, a.node(), "put", ctx -> {
            a.write(ctx, b, 0, 1 << 19, size, 1);
            ok[0] = a.awaitSend(ctx).status() == Outcome.SUCCESS;
        }).start();
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        assertTrue(ok[0], policy + " put of " + size);
        return job.policy().pinnedBytes(a.endpoint());
    }
}
