package org.pagefabric.reg.firehose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;

/**
 * Random streams of puts and gets between three ranks, each rank with two operations in flight,
 * under an M and a MAXVICTIM far smaller than the memory touched, so firehoses move, buckets are
 * shared between initiators, revived from the victim FIFO and unpinned all the time. After every
 * completion: no node above M + MAXVICTIM, no reference count below zero, no referenced bucket
 * unpinned (the bucket tables' audit); every operation delivered its bytes; at the end every
 * table is consistent and each bucket's remote count is the number of firehoses mapping it.
 *
 * <p>Segment layout of every rank (KiB): [0, 64) read-only, the source of gets; [64, 128) the
 * source of puts; [128, 256) put targets, each 1 KiB stripe owned by one initiator and split
 * between its two window slots, so concurrent writes never overlap; [256, 320) where gets land,
 * half per window slot.
 */
class FirehosePropertyTest {
    private static final int RANKS = 3;
    private static final int WINDOW = 2;
    private static final int OPS = 150;
    private static final long KIB = 1024;
    private static final long READ_ZONE = 0;
    private static final long SOURCE_ZONE = 64 * KIB;
    private static final long TARGET_ZONE = 128 * KIB;
    private static final long TARGET_BYTES = 128 * KIB;
    private static final long LANDING_ZONE = 256 * KIB;
    private static final long SEGMENT = 320 * KIB;
    private static final long STRIPE = 1024;
    private static final long MAX_GET = 8 * KIB;

    /** M = 48 KiB: F = 6 firehoses to each of the two other nodes; MAXVICTIM = 32 KiB. */
    private static final Profile PROFILE = ProfileRegistry.load("firehose-myrinet").withOverrides(
            Map.of("firehose.m", "48 KiB", "firehose.maxvictim", "32 KiB"), "test");

    private static long readTag(int rank) {
        return 0x4EAD_0000L + rank;
    }

    private static long sourceTag(int rank) {
        return 0x50_0000L + rank;
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void randomPutAndGetStreamsKeepEveryInvariant(long seed) {
        Simulator sim = new Simulator(seed);
        FirehosePolicy policy = new FirehosePolicy(PROFILE);
        Job job = new Job(sim, PROFILE, RANKS, SEGMENT, policy);
        long limit = policy.config().limitBytes();
        long[] completed = new long[1];
        boolean[] ok = {true};
        String[] firstFailure = new String[1];
        for (Rank r : job.ranks()) {
            Kernel k = r.node().kernel();
            k.writeTag(r.process(), r.segment() + READ_ZONE, 64 * KIB, readTag(r.id()), 0);
            k.writeTag(r.process(), r.segment() + SOURCE_ZONE, 64 * KIB, sourceTag(r.id()), 0);
        }
        for (Rank me : job.ranks()) {
            RandomStream rnd = sim.randomStream("property.rank" + me.id());
            new SimProcess(sim, me.node(), "rank" + me.id(), ctx -> {
                Op[] slot = new Op[WINDOW];
                int inFlight = 0;
                for (int i = 0; i < OPS || inFlight > 0; i++) {
                    int s = 0;
                    while (s < WINDOW && slot[s] != null) {
                        s++;
                    }
                    if (s == WINDOW || i >= OPS) {
                        // Completions of different peers' queue pairs come in any order: the reaped one frees its slot.
                        CompletionEntry wc = me.awaitSend(ctx);
                        s = (int) (wc.wrId() % WINDOW);
                        Op op = slot[s];
                        slot[s] = null;
                        inFlight--;
                        boolean good = wc.status() == Outcome.SUCCESS && op.delivered(job);
                        if (!good && firstFailure[0] == null) {
                            firstFailure[0] = "seed " + seed + ": " + op + " -> " + wc.status();
                        }
                        ok[0] &= good;
                        completed[0]++;
                        for (Rank r : job.ranks()) {
                            assertTrue(policy.pinnedBytes(r.endpoint()) <= limit, "rank " + r.id() + " pins "
                                    + policy.pinnedBytes(r.endpoint()) + " B, above M + MAXVICTIM = " + limit);
                            // Reference counts never negative, no referenced bucket unpinned, FIFO consistent.
                            policy.buckets(r.endpoint()).audit();
                        }
                    }
                    if (i >= OPS) {
                        continue;
                    }
                    Rank peer = job.rank((me.id() + 1 + rnd.nextInt(RANKS - 1)) % RANKS);
                    Op op = rnd.nextBoolean(0.5) ? put(rnd, me, peer, s) : get(rnd, me, peer, s);
                    slot[s] = op;
                    inFlight++;
                    op.post(ctx, (long) i * WINDOW + s);
                }
            }).start();
        }
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        assertEquals((long) RANKS * OPS, completed[0]);
        assertTrue(ok[0], firstFailure[0]);
        audit(job, policy);
        FirehoseCounters c = policy.counters();
        assertTrue(c.moves().value() > 0 && c.unpins().value() > 0 && c.fifoReuses().value() > 0,
                "the stream must exercise moves, unpins and FIFO reuse");
    }

    /** Tables agree with themselves and with each other once nothing is in flight. */
    private static void audit(Job job, FirehosePolicy policy) {
        for (Rank t : job.ranks()) {
            BucketTable table = policy.buckets(t.endpoint());
            table.audit();
            for (int b = 0; b < table.buckets(); b++) {
                assertEquals(0, table.localRefs(b), "local references left on bucket " + b + " of rank " + t.id());
                int firehoses = 0;
                for (Rank i : job.ranks()) {
                    if (i != t && policy.firehoses(i.endpoint()).find(t.id(), b) >= 0) {
                        firehoses++;
                        assertEquals(0, policy.firehoses(i.endpoint()).refs(policy.firehoses(i.endpoint()).find(t.id(), b)));
                    }
                }
                assertEquals(firehoses, table.remoteRefs(b), "bucket " + b + " of rank " + t.id());
            }
        }
    }

    private static Op put(RandomStream rnd, Rank me, Rank peer, int slot) {
        long len = 1 + rnd.nextInt((int) (STRIPE / WINDOW));
        long stripes = TARGET_BYTES / STRIPE;
        long stripe = rnd.nextLong(stripes / RANKS) * RANKS + me.id();
        long to = TARGET_ZONE + stripe * STRIPE + slot * (STRIPE / WINDOW) + rnd.nextLong(STRIPE / WINDOW - len + 1);
        long from = SOURCE_ZONE + rnd.nextLong(64 * KIB - len + 1);
        return new Op(true, me, peer, from, to, len);
    }

    private static Op get(RandomStream rnd, Rank me, Rank peer, int slot) {
        long len = 1 + rnd.nextLong(MAX_GET);
        long from = READ_ZONE + rnd.nextLong(64 * KIB - len + 1);
        long half = (SEGMENT - LANDING_ZONE) / WINDOW;
        long to = LANDING_ZONE + slot * half + rnd.nextLong(half - len + 1);
        return new Op(false, me, peer, from, to, len);
    }

    /** A put (from my segment offset to the peer's) or a get (from the peer's offset to mine). */
    private record Op(boolean put, Rank me, Rank peer, long from, long to, long length) {
        @Override
        public String toString() {
            return (put ? "put " : "get ") + me.id() + (put ? " -> " : " <- ") + peer.id() + " from " + from + " to " + to
                    + " length " + length;
        }

        void post(org.pagefabric.sim.process.ProcessContext ctx, long wrId) {
            if (put) {
                me.write(ctx, peer, from, to, length, wrId);
            } else {
                me.read(ctx, peer, from, to, length, wrId);
            }
        }

        boolean delivered(Job job) {
            Rank dst = put ? peer : me;
            long tag = put ? sourceTag(me.id()) : readTag(peer.id());
            long pos = from - (put ? SOURCE_ZONE : READ_ZONE);
            return dst.node().kernel().verifyTag(dst.process(), dst.segment() + to, length, tag, pos);
        }
    }
}
