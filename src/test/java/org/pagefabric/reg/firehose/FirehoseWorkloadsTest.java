package org.pagefabric.reg.firehose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.comm.Job;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadRegistry;

/** The Firehose microbenchmarks run end to end under {@code firehose} with M small enough that firehoses move. */
class FirehoseWorkloadsTest {
    private static final long MIB = 1L << 20;

    /**
     * The seed's testbed with M = 2 MiB and MAXVICTIM = 2 MiB: a working set of 8 MiB overflows
     * M + MAXVICTIM, and 16 puts of 64 KiB in flight (1 MiB of local buffers) fit in MAXVICTIM.
     */
    static Profile smallM() {
        return ProfileRegistry.load("firehose-myrinet").withOverrides(
                Map.of("firehose.m", "2 MiB", "firehose.maxvictim", "2 MiB"), "test");
    }

    static Map<String, Object> params(long workingSetMiB, long size, long puts) {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("working_set_MiB", workingSetMiB);
        p.put("size_B", size);
        p.put("source_area_MiB", 1);
        p.put("iterations", puts);
        return p;
    }

    /** A finished run: the policy (for its counters and tables), the job, the workload's report. */
    private record Outcome(FirehosePolicy policy, Job job, Workload.Run run, LatencyHistogram latency) {
    }

    private static Outcome run(String workload, Map<String, Object> given, long seed) {
        Workload w = WorkloadRegistry.standard().byName(workload);
        Map<String, Object> values = w.resolve(given);
        Simulator sim = new Simulator(seed);
        Profile profile = smallM();
        FirehosePolicy policy = new FirehosePolicy(profile);
        Job job = new Job(sim, profile, w.ranks(), w.segmentBytes(values), policy);
        LatencyHistogram lat = sim.statistics().latency("test.latency", "latency");
        Workload.Run r = w.start(job, values, lat);
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        return new Outcome(policy, job, r, lat);
    }

    private static void assertWithinLimit(Outcome o) {
        long limit = o.policy().config().limitBytes();
        for (var r : o.job().ranks()) {
            assertTrue(o.policy().pinnedBytes(r.endpoint()) <= limit, "rank " + r.id() + ": " + o.policy().pinnedBytes(r.endpoint()));
            o.policy().buckets(r.endpoint()).audit();
        }
    }

    @Test
    void latencyWorkloadBeyondMPlusMaxVictimMovesAndUnpins() {
        Outcome o = run("fh-put-latency", params(8, 8, 300), 1);
        FirehoseCounters c = o.policy().counters();
        assertTrue(o.run().verified());
        assertEquals(300, o.latency().count());
        // Moves count the warm-up too; hits and misses restart with the timed puts (hit_rate_pct).
        assertTrue(c.moves().value() > 2048, "the warm-up alone touches 2048 buckets: " + c.moves().value());
        assertTrue(c.misses().value() > 0, "beyond M + MAXVICTIM some timed puts miss");
        assertTrue(c.unpins().value() > 0);
        assertTrue(c.hits().value() > 0, "half of an 8 MiB working set stays reachable through M + MAXVICTIM");
        assertEquals(300, c.hits().value() + c.misses().value(), "every timed put is a hit or a miss");
        assertTrue(c.moves().value() >= c.misses().value(), "an 8-byte miss is one move request");
        assertWithinLimit(o);
    }

    @Test
    void aWorkingSetWithinMOnlyMissesInTheWarmUp() {
        Outcome o = run("fh-put-latency", params(1, 8, 200), 1);
        FirehoseCounters c = o.policy().counters();
        assertTrue(o.run().verified());
        // The sweep moves a firehose onto each of the 256 pages once; every timed put then hits.
        assertEquals(256, c.moves().value());
        assertEquals(0, c.misses().value(), "the timed puts (after the warm-up) never miss");
        assertEquals(200, c.hits().value());
        assertEquals(0, c.unpins().value());
    }

    @Test
    void bandwidthWorkloadMovesBulkFirehosesAndDeliversEveryByte() {
        Outcome o = run("fh-put-bandwidth", params(8, 65536, 100), 1);
        FirehoseCounters c = o.policy().counters();
        assertTrue(o.run().verified());
        assertTrue(o.run().bytesPerSecond() > 0);
        assertTrue(c.misses().value() > 0 && c.unpins().value() > 0);
        assertWithinLimit(o);
    }

    @Test
    void theStreamingBandwidthWorkloadHitsAfterItsFirstPut() {
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("size_B", 65536);
        p.put("iterations", 50);
        Outcome o = run("bandwidth", p, 1);
        FirehoseCounters c = o.policy().counters();
        assertTrue(o.run().verified());
        assertEquals(1, c.misses().value());
        assertEquals(49, c.hits().value());
    }

    @Test
    void rowsAreDeterministic() {
        Workload w = WorkloadRegistry.standard().byName("fh-put-latency");
        Map<String, Object> a = PointRun.run(smallM(), "firehose", w, params(8, 8, 100), 5);
        Map<String, Object> b = PointRun.run(smallM(), "firehose", w, params(8, 8, 100), 5);
        Map<String, Object> other = PointRun.run(smallM(), "firehose", w, params(8, 8, 100), 6);
        assertEquals(a, b);
        assertEquals(true, a.get("verified"));
        assertNotEquals(a.get("latency_us"), other.get("latency_us"), "another seed draws other targets");
        Outcome x = run("fh-put-bandwidth", params(8, 65536, 40), 3);
        Outcome y = run("fh-put-bandwidth", params(8, 65536, 40), 3);
        assertEquals(x.policy().counters().hits().value(), y.policy().counters().hits().value());
        assertEquals(x.policy().counters().moves().value(), y.policy().counters().moves().value());
        assertEquals(x.policy().counters().unpins().value(), y.policy().counters().unpins().value());
        assertEquals(x.run().bytesPerSecond(), y.run().bytesPerSecond());
        assertTrue(x.job().pinnedBytes() <= 2 * (4 * MIB));
    }
}
