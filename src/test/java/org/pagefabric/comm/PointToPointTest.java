package org.pagefabric.comm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;

/** MPI point-to-point over verbs: what completes when, and which bytes land where. */
class PointToPointTest {
    private static final long SEGMENT = 4L << 20;
    private static final long POOL = 2L << 20;
    private static final long EAGER = 12 * 1024;

    private record Setup(Simulator sim, Job job, PointToPoint p2p, List<String> events) {
    }

    private static Setup setup(String policy) {
        Profile profile = ProfileRegistry.resolve("default");
        Simulator sim = new Simulator(1);
        Job job = new Job(sim, profile, 2, SEGMENT, PolicyRegistry.standard().create(policy, profile));
        List<String> events = new ArrayList<>();
        PointToPoint p2p = new PointToPoint(job, EAGER, POOL, r -> events.add(
                (r.kind() == PointToPoint.Request.SEND ? "send" : "recv") + " of rank " + r.rank() + " done"));
        p2p.start();
        return new Setup(sim, job, p2p, events);
    }

    @Test
    void anEagerSendCompletesBeforeAnyReceiveIsPosted() {
        Setup s = setup("cache-hooks");
        Rank r0 = s.job.rank(0);
        Rank r1 = s.job.rank(1);
        long[] sendDoneAt = new long[1];
        long[] recvPostedAt = new long[1];
        new SimProcess(s.sim, r0.node(), "app0", ctx -> {
            r0.node().kernel().writeTag(r0.process(), r0.segment(), 1000, 77, 0);
            PointToPoint.Request q = s.p2p.isend(ctx, 0, 1, 5, 0, r0.segment(), 1000);
            assertTrue(q.done(), "an eager send is complete once copied");
            sendDoneAt[0] = ctx.now();
        }).start();
        new SimProcess(s.sim, r1.node(), "app1", ctx -> {
            ctx.sleep(1_000_000_000L);
            recvPostedAt[0] = ctx.now();
            PointToPoint.Request r = s.p2p.irecv(ctx, 1, 0, 5, 0, r1.segment() + 8192, 1000);
            s.p2p.await(ctx, r);
            assertEquals(1000, r.received());
            assertEquals(0, r.source());
            assertEquals(5, r.receivedTag());
            assertTrue(r1.node().kernel().verifyTag(r1.process(), r1.segment() + 8192, 1000, 77, 0));
        }).start();
        s.sim.run();
        assertTrue(sendDoneAt[0] < recvPostedAt[0]);
        assertEquals(1, s.p2p.unexpectedMessages());
        assertEquals(List.of("send of rank 0 done", "recv of rank 1 done"), s.events);
    }

    @Test
    void aRendezvousSendWaitsForItsReceiveAndWritesUserBufferToUserBuffer() {
        Setup s = setup("cache-hooks");
        Rank r0 = s.job.rank(0);
        Rank r1 = s.job.rank(1);
        long len = 256 * 1024;
        long[] sendDoneAt = new long[1];
        long receivePostedAt = 2_000_000_000L;
        new SimProcess(s.sim, r0.node(), "app0", ctx -> {
            r0.node().kernel().writeTag(r0.process(), r0.segment(), len, 91, 0);
            PointToPoint.Request q = s.p2p.isend(ctx, 0, 1, 1, 0, r0.segment(), len);
            assertTrue(!q.done());
            s.p2p.await(ctx, q);
            sendDoneAt[0] = ctx.now();
        }).start();
        new SimProcess(s.sim, r1.node(), "app1", ctx -> {
            ctx.sleep(receivePostedAt);
            PointToPoint.Request r = s.p2p.irecv(ctx, 1, MatchingQueues.ANY_SOURCE, MatchingQueues.ANY_TAG, 0,
                    r1.segment() + 4096, len);
            s.p2p.await(ctx, r);
            assertEquals(len, r.received());
            assertTrue(r1.node().kernel().verifyTag(r1.process(), r1.segment() + 4096, len, 91, 0));
        }).start();
        s.sim.run();
        assertTrue(sendDoneAt[0] > receivePostedAt, "the write waits for the receive's CTS");
        assertEquals(1, s.p2p.rendezvousMessages());
        assertEquals(0, s.p2p.copiedBytes(), "a rendezvous copies nothing");
    }

    @Test
    void messagesOfOneSenderAreReceivedByTagWhateverTheOrderOfTheReceives() {
        Setup s = setup("odp-explicit");
        Rank r0 = s.job.rank(0);
        Rank r1 = s.job.rank(1);
        new SimProcess(s.sim, r0.node(), "app0", ctx -> {
            r0.node().kernel().writeTag(r0.process(), r0.segment(), 64, 1, 0);
            r0.node().kernel().writeTag(r0.process(), r0.segment() + 65536, 65536, 2, 0);
            PointToPoint.Request a = s.p2p.isend(ctx, 0, 1, 1, 0, r0.segment(), 64);
            PointToPoint.Request b = s.p2p.isend(ctx, 0, 1, 2, 0, r0.segment() + 65536, 65536);
            s.p2p.await(ctx, a);
            s.p2p.await(ctx, b);
        }).start();
        new SimProcess(s.sim, r1.node(), "app1", ctx -> {
            PointToPoint.Request big = s.p2p.irecv(ctx, 1, 0, 2, 0, r1.segment(), 65536);
            s.p2p.await(ctx, big);
            PointToPoint.Request small = s.p2p.irecv(ctx, 1, 0, 1, 0, r1.segment() + 65536, 64);
            s.p2p.await(ctx, small);
            assertTrue(r1.node().kernel().verifyTag(r1.process(), r1.segment(), 65536, 2, 0));
            assertTrue(r1.node().kernel().verifyTag(r1.process(), r1.segment() + 65536, 64, 1, 0));
        }).start();
        s.sim.run();
    }

    @Test
    void manyEagerMessagesBeyondTheCreditsNeverDeadlockAReceiverThatWaitsForTheLast() {
        Setup s = setup("cache-hooks");
        Rank r0 = s.job.rank(0);
        Rank r1 = s.job.rank(1);
        int n = 5 * PointToPoint.CREDITS + PointToPoint.SEND_FRAGMENTS;
        new SimProcess(s.sim, r0.node(), "app0", ctx -> {
            for (int i = 0; i < n; i++) {
                r0.node().kernel().writeTag(r0.process(), r0.segment(), 512, 1000 + i, 0);
                s.p2p.isend(ctx, 0, 1, i, 0, r0.segment(), 512);
            }
        }).start();
        new SimProcess(s.sim, r1.node(), "app1", ctx -> {
            for (int i = n - 1; i >= 0; i--) {
                PointToPoint.Request r = s.p2p.irecv(ctx, 1, 0, i, 0, r1.segment() + 4096, 512);
                s.p2p.await(ctx, r);
                assertTrue(r1.node().kernel().verifyTag(r1.process(), r1.segment() + 4096, 512, 1000 + i, 0), "tag " + i);
            }
        }).start();
        s.sim.run();
        assertEquals(n, s.p2p.eagerMessages());
    }
}
