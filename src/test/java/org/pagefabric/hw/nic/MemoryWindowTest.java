package org.pagefabric.hw.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.Completion;

/**
 * Type-2 memory windows end to end: a window bound on the target's queue pair lets the peer
 * write through its key within its bounds and rights, into an on-demand region through the
 * region's fault path; a LOCAL_INV revokes it, after which the peer's writes complete with a
 * remote access error and are counted; the key of an earlier bind no longer works; and a
 * random sequence of binds, revocations and writes never lets a write in that the window's
 * state at that moment does not allow.
 */
class MemoryWindowTest {
    private static final int PAGE = NicBed.PAGE;
    private static final long TARGET = NicBed.BASE;
    private static final long SOURCE = NicBed.BASE + 0x100_0000L;
    private static final int ALL = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_READ;

    private final NicBed bed = new NicBed();
    private final MemoryRegion source = bed.a.pinned(SOURCE, 4, AccessFlags.LOCAL_WRITE);
    private final MemoryRegion target = bed.b.pinned(TARGET, 8, ALL);

    /** Posts {@code wr} on {@code qp}, runs until it has taken effect, returns its status. */
    private CompletionStatus execute(QueuePair qp, WorkRequest wr) {
        Completion done = new Completion("mw");
        qp.postSend(wr, done);
        bed.sim.run();
        assertTrue(done.isDone());
        return CompletionStatus.values()[(int) done.value()];
    }

    /** An RDMA write of {@code len} bytes of {@code fill} to {@code va} through {@code rkey}; its status. */
    private CompletionStatus write(QueuePair qp, long wrId, long va, int len, int rkey, byte fill) {
        byte[] data = new byte[len];
        java.util.Arrays.fill(data, fill);
        bed.a.store(SOURCE, data);
        qp.postSend(WorkRequest.write(wrId, SOURCE, len, source.lkey(), va, rkey));
        bed.sim.run();
        List<WorkCompletion> wcs = bed.a.drain();
        WorkCompletion wc = wcs.get(wcs.size() - 1);
        assertEquals(wrId, wc.wrId());
        return wc.status();
    }

    @Test
    void aBoundWindowLetsItsPeerInAndAnInvalidatedOneRefusesAndCounts() {
        QueuePair[] qp = bed.connect();
        MemoryWindow mw = bed.b.nic.allocateWindow(bed.b.pd);
        int key = bed.b.nic.keys().nextWindowKey(mw);
        assertEquals(CompletionStatus.SUCCESS, execute(qp[1],
                WorkRequest.bindWindow(1, key, target.lkey(), TARGET + PAGE, 2 * PAGE, AccessFlags.REMOTE_WRITE)));
        assertTrue(mw.bound());
        assertEquals(key, mw.rkey());
        assertEquals(CompletionStatus.SUCCESS, write(qp[0], 10, TARGET + PAGE, 64, key, (byte) 7));
        assertArrayEquals(filled(64, (byte) 7), bed.b.load(TARGET + PAGE, 64));

        assertEquals(CompletionStatus.SUCCESS, execute(qp[1], WorkRequest.localInvalidate(2, key)));
        long before = bed.b.nic.refused(AccessCheck.BAD_KEY);
        assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, write(qp[0], 11, TARGET + PAGE, 64, key, (byte) 9));
        assertArrayEquals(filled(64, (byte) 7), bed.b.load(TARGET + PAGE, 64), "a revoked window writes nothing");
        assertEquals(before + 1, bed.b.nic.refused(AccessCheck.BAD_KEY));
        assertEquals(1, bed.b.nic.windowRefusals());
    }

    @Test
    void aWindowGrantsOnlyItsBoundsRightsAndQueuePairAndARebindRetiresTheOldKey() {
        QueuePair[] qp = bed.connect();
        QueuePair[] other = bed.connect();
        MemoryWindow mw = bed.b.nic.allocateWindow(bed.b.pd);
        int first = bed.b.nic.keys().nextWindowKey(mw);
        execute(qp[1], WorkRequest.bindWindow(1, first, target.lkey(), TARGET + PAGE, PAGE, AccessFlags.REMOTE_READ));
        assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, write(qp[0], 10, TARGET + PAGE, 8, first, (byte) 1),
                "the window grants reads only, though its region allows writes");
        assertEquals(1, bed.b.nic.refused(AccessCheck.ACCESS_DENIED));

        qp = bed.connect();
        assertEquals(CompletionStatus.SUCCESS, execute(qp[1], WorkRequest.localInvalidate(2, first)));
        int second = bed.b.nic.keys().nextWindowKey(mw);
        assertNotEquals(first, second);
        execute(qp[1], WorkRequest.bindWindow(3, second, target.lkey(), TARGET + PAGE, PAGE, AccessFlags.REMOTE_WRITE));
        assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, write(other[0], 11, TARGET + PAGE, 8, second, (byte) 2),
                "a type-2 window works only through the QP it was bound on");
        assertEquals(1, bed.b.nic.refused(AccessCheck.WRONG_QUEUE_PAIR));
        assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, write(qp[0], 12, TARGET + PAGE + PAGE - 4, 8, second, (byte) 3),
                "a write past the window's end, inside the region");
        qp = bed.connect();
        execute(qp[1], WorkRequest.localInvalidate(4, second));
        int third = bed.b.nic.keys().nextWindowKey(mw);
        execute(qp[1], WorkRequest.bindWindow(5, third, target.lkey(), TARGET, PAGE, AccessFlags.REMOTE_WRITE));
        assertEquals(CompletionStatus.SUCCESS, write(qp[0], 13, TARGET, 8, third, (byte) 5));
        assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, write(qp[0], 14, TARGET, 8, second, (byte) 4),
                "the key of an earlier bind names the same window but not its present binding");
        assertEquals(4, bed.b.nic.windowRefusals());
    }

    @Test
    void aTypeTwoWindowIsNotBoundTwiceNorInvalidatedWhenUnbound() {
        QueuePair[] qp = bed.connect();
        MemoryWindow mw = bed.b.nic.allocateWindow(bed.b.pd);
        int key = bed.b.nic.keys().nextWindowKey(mw);
        assertEquals(CompletionStatus.LOCAL_PROTECTION_ERROR, execute(qp[1], WorkRequest.localInvalidate(1, key)));
        qp = bed.connect();
        execute(qp[1], WorkRequest.bindWindow(2, key, target.lkey(), TARGET, PAGE, AccessFlags.REMOTE_WRITE));
        assertEquals(CompletionStatus.LOCAL_PROTECTION_ERROR, execute(qp[1],
                WorkRequest.bindWindow(3, bed.b.nic.keys().nextWindowKey(mw), target.lkey(), TARGET, PAGE,
                        AccessFlags.REMOTE_WRITE)));
        assertTrue(qp[1].inError(), "a failed bind puts the queue pair in the error state");
        MemoryRegion readOnly = bed.b.pinned(TARGET + 16 * PAGE, 1, 0);
        QueuePair[] third = bed.connect();
        MemoryWindow w2 = bed.b.nic.allocateWindow(bed.b.pd);
        assertEquals(CompletionStatus.LOCAL_PROTECTION_ERROR, execute(third[1], WorkRequest.bindWindow(4,
                bed.b.nic.keys().nextWindowKey(w2), readOnly.lkey(), TARGET + 16 * PAGE, PAGE, AccessFlags.REMOTE_WRITE)),
                "remote write rights need a region the NIC may write");
        assertNull(w2.region());
    }

    @Test
    void aBindWaitsForEarlierRequestsAndCostsItsFetchPlusItsOwnProcessing() {
        bed.b.nic.setWindowCosts(2 * Time.US, 1 * Time.US);
        QueuePair[] qp = bed.connect();
        MemoryWindow mw = bed.b.nic.allocateWindow(bed.b.pd);
        int key = bed.b.nic.keys().nextWindowKey(mw);
        Completion done = new Completion("bind");
        long start = bed.sim.now();
        qp[1].postSend(WorkRequest.bindWindow(1, key, target.lkey(), TARGET, PAGE, AccessFlags.REMOTE_WRITE), done);
        bed.sim.run();
        NicCosts c = NicBed.COSTS;
        long expected = c.doorbellPs() + c.wqeProcessingPs() + 2 * Time.US + c.completionPs();
        assertEquals(start + expected, bed.sim.now(), "bind: doorbell, fetch, its processing, its completion");
    }

    @Test
    void aWindowOverAnOnDemandRegionFaultsThroughTheRegion() {
        MemoryRegion odp = bed.b.onDemand(TARGET + 32 * PAGE, 4, ALL);
        new NicBed.DelayedDriver(bed, bed.b, f -> 10 * Time.US);
        QueuePair[] qp = bed.connect();
        MemoryWindow mw = bed.b.nic.allocateWindow(bed.b.pd);
        int key = bed.b.nic.keys().nextWindowKey(mw);
        execute(qp[1], WorkRequest.bindWindow(1, key, odp.lkey(), TARGET + 33 * PAGE, PAGE, AccessFlags.REMOTE_WRITE));
        assertEquals(CompletionStatus.SUCCESS, write(qp[0], 10, TARGET + 33 * PAGE, 128, key, (byte) 6));
        assertEquals(1, bed.b.nic.pageFaults(PageFaultKind.RESPONDER));
        assertArrayEquals(filled(128, (byte) 6), bed.b.load(TARGET + 33 * PAGE, 128));
    }

    /**
     * Random sequences of binds (a fresh key each time, random range), revocations and writes
     * through random keys (the present one, a revoked one, a neighbour's) over random ranges: a
     * write completes exactly when the window is bound on its queue pair under that key and the
     * range lies inside it, and the target's memory changes only then.
     */
    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void noWriteGetsInThroughAWindowThatDoesNotAllowItAtThatMoment(long seed) {
        RandomStream r = new RandomStream(seed);
        NicBed b = new NicBed(seed, null);
        MemoryRegion src = b.a.pinned(SOURCE, 1, AccessFlags.LOCAL_WRITE);
        MemoryRegion dst = b.b.pinned(TARGET, 8, ALL);
        MemoryWindow mw = b.b.nic.allocateWindow(b.b.pd);
        QueuePair[] qp = b.connect();
        boolean bound = false;
        int key = mw.rkey();
        long lo = 0;
        long hi = 0;
        int refusedExpected = 0;
        byte[] shadow = b.b.load(TARGET, 8 * PAGE);
        for (int step = 0; step < 60; step++) {
            int op = r.nextInt(3);
            if (op == 0 && bound) {
                Completion done = new Completion();
                qp[1].postSend(WorkRequest.localInvalidate(step, key), done);
                b.sim.run();
                bound = false;
            } else if (op == 1 && !bound) {
                key = b.b.nic.keys().nextWindowKey(mw);
                lo = TARGET + (long) r.nextInt(4) * PAGE;
                hi = lo + (1L + r.nextInt(4)) * PAGE;
                Completion done = new Completion();
                qp[1].postSend(WorkRequest.bindWindow(step, key, dst.lkey(), lo, hi - lo, AccessFlags.REMOTE_WRITE), done);
                b.sim.run();
                bound = true;
            }
            int useKey = switch (r.nextInt(3)) {
                case 0 -> key;
                case 1 -> (key & ~0xFF) | ((key + 1) & 0xFF);
                default -> key + (1 << 8); // the next index: no window, no region
            };
            long va = TARGET + r.nextInt(8 * PAGE - 64);
            int len = 1 + r.nextInt(64);
            boolean allowed = bound && useKey == key && va >= lo && va + len <= hi;
            byte fill = (byte) (step + 1);
            byte[] data = filled(len, fill);
            b.a.store(SOURCE, data);
            qp[0].postSend(WorkRequest.write(1000 + step, SOURCE, len, src.lkey(), va, useKey));
            b.sim.run();
            List<WorkCompletion> wcs = b.a.drain();
            CompletionStatus got = wcs.get(wcs.size() - 1).status();
            assertEquals(allowed ? CompletionStatus.SUCCESS : CompletionStatus.REMOTE_ACCESS_ERROR, got,
                    "seed " + seed + " step " + step + ": write [0x" + Long.toHexString(va) + ", +" + len + ") key 0x"
                            + Integer.toHexString(useKey) + ", window " + mw);
            if (allowed) {
                System.arraycopy(data, 0, shadow, (int) (va - TARGET), len);
            } else {
                refusedExpected++;
                // A refused RC write leaves both ends in error: the peer reconnects on fresh queue pairs.
                if (bound) {
                    Completion done = new Completion();
                    qp[1].postSend(WorkRequest.localInvalidate(-step, key), done);
                    b.sim.run();
                    bound = false;
                }
                qp = b.connect();
            }
            assertArrayEquals(shadow, b.b.load(TARGET, 8 * PAGE), "seed " + seed + " step " + step);
        }
        assertEquals(refusedExpected, b.b.nic.refusedTotal());
    }

    private static byte[] filled(int len, byte b) {
        byte[] d = new byte[len];
        java.util.Arrays.fill(d, b);
        return d;
    }
}
