package org.pagefabric.reg.bounce;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.reg.pin.PinEverything;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.WorkloadRegistry;

class BounceBuffersTest {
    private static final Profile PROFILE = ProfileRegistry.resolve("default");
    private static final long BUFFER = 32 * 1024;

    private static Map<String, Object> point(Profile p, String policy, String workload, long size, int iterations) {
        return PointRun.run(p, policy, WorkloadRegistry.standard().byName(workload), size, iterations, 5);
    }

    private static double metric(Map<String, Object> row, String name) {
        return ((Number) row.get(name)).doubleValue();
    }

    private static Profile buffers(int count) {
        return PROFILE.withOverrides(Map.of("bounce.buffer_size", BUFFER + " B", "bounce.buffers", "" + count), "test");
    }

    @Test
    void dataArrivesEndToEndWholeAndInPieces() {
        for (Profile p : new Profile[] {buffers(1), buffers(4)}) {
            for (String workload : new String[] {"latency", "bandwidth", "pingpong"}) {
                for (long size : new long[] {8, 4099, BUFFER, BUFFER + 1, 65536, 1 << 20}) {
                    assertEquals(true, point(p, BounceBuffers.NAME, workload, size, 20).get("verified"),
                            workload + " " + size);
                }
            }
        }
    }

    @Test
    void aPutIsCompleteOnlyOnceTheTargetCopiedItOut() {
        Simulator sim = new Simulator(2);
        BounceBuffers policy = new BounceBuffers(buffers(2));
        long size = 5 * BUFFER + 17;
        Job job = new Job(sim, buffers(2), 2, size, policy);
        Rank src = job.rank(0);
        Rank dst = job.rank(1);
        src.node().kernel().writeTag(src.process(), src.segment(), size, 0xC0FFEEL, 0);
        boolean[] arrived = new boolean[1];
        new SimProcess(sim, src.node(), "rank0", ctx -> {
            src.write(ctx, dst, 0, 0, size, 1);
            // the source may change at once: its bytes went into bounce buffers, not to the NIC
            assertEquals(Outcome.SUCCESS, src.awaitSend(ctx).status());
            arrived[0] = dst.node().kernel().verifyTag(dst.process(), dst.segment(), size, 0xC0FFEEL, 0);
        }).start();
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        assertTrue(arrived[0], "every piece copied out by the time the put completes");
    }

    @Test
    void aMessageSentBeforeItsReceiveWaitsInBounceBuffers() {
        Simulator sim = new Simulator(2);
        Profile p = buffers(2);
        BounceBuffers policy = new BounceBuffers(p);
        long size = 3 * BUFFER + 5;
        Job job = new Job(sim, p, 2, size, policy);
        Rank a = job.rank(0);
        Rank b = job.rank(1);
        a.node().kernel().writeTag(a.process(), a.segment(), size, 0xBEEFL, 0);
        long[] got = new long[1];
        new SimProcess(sim, a.node(), "rank0", ctx -> {
            a.send(ctx, b, 0, size, 1);
            assertEquals(Outcome.SUCCESS, a.awaitSend(ctx).status());
            got[0] = ctx.now();
        }).start();
        new SimProcess(sim, b.node(), "rank1", ctx -> {
            ctx.sleep(1_000_000_000L); // 1 ms: long after the first pieces arrived
            b.receive(ctx, a, 0, size, 9);
            var wc = b.awaitReceive(ctx);
            assertEquals(size, wc.bytes());
            assertEquals(9, wc.wrId());
        }).start();
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        assertTrue(b.node().kernel().verifyTag(b.process(), b.segment(), size, 0xBEEFL, 0));
        assertTrue(got[0] > 1_000_000_000L, "the send completes only once the receiver took the message");
    }

    @Test
    void aMessageWaitingForItsReceiveDoesNotHoldBackAnotherPeersMessage() {
        // Ranks 1 and 2 each send to rank 0, 1 first. Rank 0 receives from 2 first, then from 1.
        // Were rank 0's handler to wait for a receive for rank 1's message, rank 2's pieces would
        // queue behind it and rank 0 would wait for them for ever.
        Simulator sim = new Simulator(2);
        Profile p = buffers(2);
        BounceBuffers policy = new BounceBuffers(p);
        long size = 2 * BUFFER + 3;
        Job job = new Job(sim, p, 3, 2 * size, policy);
        Rank zero = job.rank(0);
        long[] order = new long[2];
        for (int s = 1; s <= 2; s++) {
            Rank from = job.rank(s);
            long tag = 0x5E00L + s;
            from.node().kernel().writeTag(from.process(), from.segment(), size, tag, 0);
            long delay = s * 100_000_000L;
            new SimProcess(sim, from.node(), "rank" + s, ctx -> {
                ctx.sleep(delay);
                from.send(ctx, zero, 0, size, 1);
                assertEquals(Outcome.SUCCESS, from.awaitSend(ctx).status());
            }).start();
        }
        new SimProcess(sim, zero.node(), "rank0", ctx -> {
            zero.receive(ctx, job.rank(2), size, size, 2);
            order[0] = zero.awaitReceive(ctx).wrId();
            zero.receive(ctx, job.rank(1), 0, size, 1);
            order[1] = zero.awaitReceive(ctx).wrId();
        }).start();
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        assertEquals(2, order[0]);
        assertEquals(1, order[1]);
        assertTrue(zero.node().kernel().verifyTag(zero.process(), zero.segment(), size, 0x5E01L, 0));
        assertTrue(zero.node().kernel().verifyTag(zero.process(), zero.segment() + size, size, 0x5E02L, 0));
    }

    @Test
    void pinnedMemoryIsTheBounceBuffersWhateverTheMessageSize() {
        long perRank = 2L * 2 * 4 * BUFFER; // outgoing and incoming buffers for each of 2 ranks
        for (long size : new long[] {8, 1 << 20}) {
            double mib = metric(point(buffers(4), BounceBuffers.NAME, "latency", size, 5), "pinned_MiB");
            assertEquals(2.0 * perRank / (1 << 20), mib, 1e-9, size + " B");
        }
    }

    @Test
    void copiesAndTheTargetsHandlerCostOnTopOfAZeroCopyWrite() {
        for (long size : new long[] {8, 65536, 1 << 20}) {
            double bounce = metric(point(PROFILE, BounceBuffers.NAME, "latency", size, 10), "latency_us");
            double zeroCopy = metric(point(PROFILE, PinEverything.NAME, "latency", size, 10), "latency_us");
            assertTrue(bounce > zeroCopy, size + " B: bounce " + bounce + " us, pin-all " + zeroCopy + " us");
        }
    }

    @Test
    void fasterCopiesShortenLargePuts() {
        Profile slow = PROFILE.withOverrides(Map.of("bounce.copy_bandwidth", "2 GB/s"), "test");
        Profile fast = PROFILE.withOverrides(Map.of("bounce.copy_bandwidth", "16 GB/s"), "test");
        double slowUs = metric(point(slow, BounceBuffers.NAME, "latency", 1 << 20, 5), "latency_us");
        double fastUs = metric(point(fast, BounceBuffers.NAME, "latency", 1 << 20, 5), "latency_us");
        assertTrue(slowUs > fastUs, "slow copies " + slowUs + " us, fast " + fastUs + " us");
    }

    @Test
    void moreBuffersOverlapPiecesOfALargePut() {
        double one = metric(point(buffers(1), BounceBuffers.NAME, "latency", 1 << 20, 5), "latency_us");
        double four = metric(point(buffers(4), BounceBuffers.NAME, "latency", 1 << 20, 5), "latency_us");
        assertTrue(four < one, "4 buffers " + four + " us, 1 buffer " + one + " us");
    }

    @Test
    void getsAreRefusedWithAReason() {
        Simulator sim = new Simulator(2);
        BounceBuffers policy = new BounceBuffers(PROFILE);
        new Job(sim, PROFILE, 2, 4096, policy);
        org.pagefabric.reg.PolicyRefusal e = assertThrows(org.pagefabric.reg.PolicyRefusal.class,
                () -> policy.local(null, null, 0, 8));
        assertTrue(e.getMessage().contains("gets through bounce buffers are not modelled"));
    }

    @Test
    void runsAreDeterministic() {
        assertEquals(point(PROFILE, BounceBuffers.NAME, "bandwidth", 100_000, 20),
                point(PROFILE, BounceBuffers.NAME, "bandwidth", 100_000, 20));
    }
}
