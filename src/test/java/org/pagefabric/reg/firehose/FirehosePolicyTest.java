package org.pagefabric.reg.firehose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.hw.nic.WorkRequest;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;

/** The Firehose policy on a small cluster: misses move firehoses, hits are one-sided, victims are reused or unpinned. */
class FirehosePolicyTest {
    private static final int PAGE = PhysicalMemory.PAGE_SIZE;

    /** M = {@code fPages} buckets for one remote node, MAXVICTIM {@code victimPages}: F = fPages. */
    private static Profile profile(int fPages, int victimPages) {
        return ProfileRegistry.load("firehose-myrinet").withOverrides(
                Map.of("firehose.m", fPages * 4 + " KiB", "firehose.maxvictim", victimPages * 4 + " KiB"), "test");
    }

    private record Bed(Simulator sim, Job job, FirehosePolicy policy) {
        Rank r(int i) {
            return job.rank(i);
        }

        FirehoseCounters counters() {
            return policy.counters();
        }
    }

    /** Two ranks, F = {@code fPages}, MAXVICTIM one bucket: at most fPages + 1 buckets pinned per node. */
    private static Bed bed(int fPages) {
        return bed(fPages, 1);
    }

    private static Bed bed(int fPages, int victimPages) {
        Simulator sim = new Simulator(7);
        Profile p = profile(fPages, victimPages);
        FirehosePolicy policy = (FirehosePolicy) PolicyRegistry.standard().create("firehose", p);
        Job job = new Job(sim, p, 2, 16L * PAGE, policy);
        return new Bed(sim, job, policy);
    }

    /** Rank 0 puts 8 bytes from its page 0 to each of the target pages in turn, one at a time; returns each latency. */
    private static long[] putTo(Bed bed, int... targetPages) {
        long[] took = new long[targetPages.length];
        bed.r(0).node().kernel().writeTag(bed.r(0).process(), bed.r(0).segment(), PAGE, 0xABCL, 0);
        new SimProcess(bed.sim(), bed.r(0).node(), "rank0", ctx -> {
            for (int i = 0; i < targetPages.length; i++) {
                long t0 = ctx.now();
                bed.r(0).write(ctx, bed.r(1), 0, (long) targetPages[i] * PAGE, 8, i);
                CompletionEntry wc = bed.r(0).awaitSend(ctx);
                assertEquals(Outcome.SUCCESS, wc.status());
                took[i] = ctx.now() - t0;
            }
        }).start();
        bed.sim().run();
        SimProcess.checkNoDeadlock(bed.sim());
        return took;
    }

    @Test
    void aMissMovesAFirehoseAndTheNextPutToTheBucketHits() {
        Bed bed = bed(4);
        long[] took = putTo(bed, 3, 3);
        FirehoseCounters c = bed.counters();
        assertEquals(1, c.misses().value());
        assertEquals(1, c.hits().value());
        assertEquals(1, c.moves().value());
        assertEquals(2, c.pins().value(), "the target bucket and the source bucket");
        assertTrue(took[1] < took[0], "a hit is one-sided: " + took[1] + " vs " + took[0]);
        BucketTable target = bed.policy().buckets(bed.r(1).endpoint());
        assertEquals(1, target.remoteRefs(3), "an idle firehose keeps its bucket pinned");
        assertEquals(BucketTable.PINNED, target.state(3));
        assertEquals(1, bed.policy().firehoses(bed.r(0).endpoint()).idle(1));
        assertEquals(PAGE, bed.policy().pinnedBytes(bed.r(1).endpoint()));
        assertTrue(bed.r(1).node().kernel().verifyTag(bed.r(1).process(), bed.r(1).segment() + 3L * PAGE, 8, 0xABCL, 0));
    }

    @Test
    void movedFirehosesLeaveTheirBucketsToTheVictimFifoThenToUnpinning() {
        Bed bed = bed(2); // F = 2, MAXVICTIM = 1 bucket, at most 3 buckets pinned on the target
        putTo(bed, 0, 1, 2, 0, 3);
        FirehoseCounters c = bed.counters();
        BucketTable t = bed.policy().buckets(bed.r(1).endpoint());
        // 2 moves the firehose off 0 (0 -> FIFO); 0 takes the firehose off 1 and revives 0 from the
        // FIFO (1 -> FIFO); 3 takes the firehose off 2 and, at the limit, unpins the FIFO's oldest (1).
        assertEquals(5, c.misses().value());
        assertEquals(5, c.pins().value(), "target buckets 0, 1, 2, 3 once each (0 is revived, not pinned again)"
                + " and the source bucket");
        assertEquals(5, c.fifoReuses().value(), "target bucket 0 once, the source bucket on each of 4 later puts");
        assertEquals(1, c.unpins().value());
        assertEquals(BucketTable.UNPINNED, t.state(1));
        assertTrue(t.inFifo(2));
        assertEquals(1, t.remoteRefs(0));
        assertEquals(1, t.remoteRefs(3));
        assertEquals(3L * PAGE, bed.policy().pinnedBytes(bed.r(1).endpoint()));
        t.audit();
    }

    /** Rank 0 puts two pages from its pages 0-1 to each pair of target pages starting at {@code firstPages}. */
    private static void putPairs(Bed bed, int... firstPages) {
        bed.r(0).node().kernel().writeTag(bed.r(0).process(), bed.r(0).segment(), 2L * PAGE, 0x2B0L, 0);
        new SimProcess(bed.sim(), bed.r(0).node(), "rank0", ctx -> {
            for (int i = 0; i < firstPages.length; i++) {
                bed.r(0).write(ctx, bed.r(1), 0, (long) firstPages[i] * PAGE, 2L * PAGE, i);
                assertEquals(Outcome.SUCCESS, bed.r(0).awaitSend(ctx).status());
            }
        }).start();
        bed.sim().run();
        SimProcess.checkNoDeadlock(bed.sim());
    }

    @Test
    void adjacentVictimsUnpinnedTogetherAreOneDeregistration() {
        // F = 2, MAXVICTIM = 2 buckets: the target holds at most 4. The third pair's move must
        // unpin two victims, the first pair's buckets 0 and 1, released together and so adjacent
        // at the FIFO's tail: the driver deregisters them as one region, paying one call.
        Bed bed = bed(2, 2);
        putPairs(bed, 0, 2, 4);
        FirehoseCounters c = bed.counters();
        BucketTable t = bed.policy().buckets(bed.r(1).endpoint());
        assertEquals(2, c.unpins().value());
        assertEquals(BucketTable.UNPINNED, t.state(0));
        assertEquals(BucketTable.UNPINNED, t.state(1));
        assertEquals(1, c.unpinTime().count(), "one deregistration for the run 0-1");
        double oneCallUs = Time.toMicros(ProfileRegistry.load("firehose-myrinet").time(
                org.pagefabric.hw.param.NicParameters.DEREGISTER_BASE));
        assertTrue(c.unpinTime().mean() >= oneCallUs && c.unpinTime().mean() < 2 * oneCallUs,
                "one call's time, not two: " + c.unpinTime().mean() + " us");
        assertTrue(c.moveHandler().max() < 2 * oneCallUs, "the move waited for one deregistration: "
                + c.moveHandler().max() + " us");
    }

    @Test
    void victimsThatDoNotFollowEachOtherAreDeregisteredOneByOne() {
        // The same limits. Pairs 0-1 and 2-3 leave 0 and 1 in the FIFO; the pair 1-2 keeps the
        // firehose on 2, moves the one on 3 to 1 and revives 1, so the FIFO's tail reads 0, 3.
        // The pair 5-6 moves both firehoses and must unpin two victims, 0 and 3: two regions.
        Bed bed = bed(2, 2);
        putPairs(bed, 0, 2, 1, 5);
        FirehoseCounters c = bed.counters();
        BucketTable t = bed.policy().buckets(bed.r(1).endpoint());
        assertEquals(2, c.unpins().value());
        assertEquals(BucketTable.UNPINNED, t.state(0));
        assertEquals(BucketTable.UNPINNED, t.state(3));
        assertEquals(2, c.unpinTime().count(), "one deregistration per victim");
    }

    @Test
    void aPutToABucketWithoutAFirehoseIsRefusedByTheNic() {
        Bed bed = bed(2);
        putTo(bed, 0);
        BucketPins target = bed.policy().pins(bed.r(1).endpoint());
        BucketPins source = bed.policy().pins(bed.r(0).endpoint());
        long refused = bed.r(1).node().nic().refusedTotal() + bed.r(1).node().nic().unmappedPinnedAccesses();
        CompletionEntry[] wc = new CompletionEntry[1];
        // Around the policy: the key is right, but bucket 5 was never pinned.
        new SimProcess(bed.sim(), bed.r(0).node(), "rogue", ctx -> {
            bed.r(0).endpoint().qp(1).postSend(WorkRequest.write(99, bed.r(0).segment(), 8, source.region().lkey(),
                    bed.r(1).segment() + 5L * PAGE, target.region().rkey()));
            wc[0] = bed.r(0).awaitSend(ctx);
        }).start();
        bed.sim().run();
        assertNotEquals(Outcome.SUCCESS, wc[0].status());
        assertTrue(bed.r(1).node().nic().refusedTotal() + bed.r(1).node().nic().unmappedPinnedAccesses() > refused);
    }

    @Test
    void aSecondOperationWaitsForTheMoveAnotherStarted() {
        Bed bed = bed(4, 2); // MAXVICTIM 2 buckets: both sources may be pinned at once
        bed.r(0).node().kernel().writeTag(bed.r(0).process(), bed.r(0).segment(), 2L * PAGE, 0x51L, 0);
        long[] done = new long[2];
        for (int p = 0; p < 2; p++) {
            int id = p;
            new SimProcess(bed.sim(), bed.r(0).node(), "putter" + p, ctx -> {
                // Both need target bucket 6; only the first sends a move.
                bed.r(0).write(ctx, bed.r(1), (long) id * PAGE, 6L * PAGE + id * 64, 8, 100 + id);
                done[id] = ctx.now();
            }).start();
        }
        new SimProcess(bed.sim(), bed.r(0).node(), "reaper", ctx -> {
            for (int i = 0; i < 2; i++) {
                assertEquals(Outcome.SUCCESS, bed.r(0).awaitSend(ctx).status());
            }
        }).start();
        bed.sim().run();
        SimProcess.checkNoDeadlock(bed.sim());
        FirehoseCounters c = bed.counters();
        assertEquals(1, c.moves().value());
        assertEquals(1, c.misses().value());
        assertEquals(1, c.hits().value());
        assertEquals(1, c.pendingWaits().value());
        assertTrue(done[1] >= done[0], "the waiter is released by the move's reply");
        assertEquals(0, bed.policy().firehoses(bed.r(0).endpoint()).refs(bed.policy().firehoses(bed.r(0).endpoint()).find(1, 6)));
    }
}
