package org.pagefabric.workload.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.hw.os.Advice;

/**
 * Every collective expanded for every member of communicators of several sizes, at message sizes
 * on both sides of Open MPI's thresholds: the members' schedules must fit together as the
 * replay's queue pairs match them (in posting order per pair of ranks), every message must fit
 * its receive, and every post must have its wait.
 */
class CollectiveExpansionTest {
    private static final long SEND = 0x1_0000_0000L;
    private static final long RECV = 0x10_0000_0000L;

    @Test
    void schedulesOfAllMembersFitTogether() {
        long[] sizes = {1, 8, 15, 16, 100, 1000, 4096, 8192, 20_000, 70_000, 300_000, 600_000, 2_000_000};
        int checked = 0;
        for (Collective c : Collective.values()) {
            for (int p : new int[] {2, 3, 4, 5, 7, 8, 12}) {
                for (long m : sizes) {
                    for (int root : new int[] {0, p - 1}) {
                        check(c, p, m, c.rooted() ? root : 0, SEND);
                        checked++;
                    }
                    // in place: no send buffer of its own
                    check(c, p, m, 0, 0);
                }
            }
        }
        assertTrue(checked > 1000);
    }

    private static void check(Collective c, int p, long m, int root, long sendBuffer) {
        // members are world ranks 10.. in reverse, so that member index and rank differ
        int[] members = new int[p];
        for (int i = 0; i < p; i++) {
            members[i] = 10 + p - 1 - i;
        }
        Map<Long, List<Long>> sent = new HashMap<>();
        Map<Long, List<Long>> posted = new HashMap<>();
        String what = c + " p=" + p + " m=" + m + " root=" + root + (sendBuffer == 0 ? " in place" : "");
        for (int i = 0; i < p; i++) {
            TraceRecord rec = new TraceRecord("t", 1, TraceRecord.NONE, 0, members[i], TraceOp.COLLECTIVE, sendBuffer, m, 0, 0,
                    0, 0, 0, true, Advice.DONTNEED, false, TraceRecord.NONE,
                    new MpiFields("MPI_X", c, 5, root, RECV, c.varying() ? blocks(c, p, m, i, root) : null, null));
            int sends = 0;
            int receives = 0;
            int sendWaits = 0;
            int receiveWaits = 0;
            long scratch = c.scratchBytes(m, rec.mpi().blocks(), p);
            List<TraceRecord> open = new ArrayList<>();
            for (TraceRecord r : CollectiveExpansion.expand(rec, members, i, 0)) {
                if (r.op() == TraceOp.SEND) {
                    for (TraceRecord in : open) {
                        assertTrue(r.addr() >= in.addr() + in.len() || in.addr() >= r.addr() + r.len(),
                                what + ": a send from a buffer a receive of the same step writes");
                    }
                } else if (r.op() == TraceOp.RECV) {
                    open.add(r);
                } else if (r.op() == TraceOp.WAIT && !r.sendQueue()) {
                    open.clear();
                }
                assertEquals(members[i], r.rank(), what);
                switch (r.op()) {
                    case SEND -> {
                        sends++;
                        assertTrue(r.peer() != r.rank(), what + ": a send to itself");
                        sent.computeIfAbsent(pair(r.rank(), r.peer()), k -> new ArrayList<>()).add(r.len());
                        assertTrue(within(r, c, m, p, i == root, rec.mpi().blocks(), scratch), what + ": send outside its buffers");
                    }
                    case RECV -> {
                        receives++;
                        posted.computeIfAbsent(pair(r.peer(), r.rank()), k -> new ArrayList<>()).add(r.len());
                        assertTrue(within(r, c, m, p, i == root, rec.mpi().blocks(), scratch), what + ": receive outside its buffers");
                    }
                    case WAIT -> {
                        if (r.sendQueue()) {
                            sendWaits++;
                        } else {
                            receiveWaits++;
                        }
                    }
                    default -> throw new AssertionError(what + ": " + r.op());
                }
            }
            assertEquals(sends, sendWaits, what);
            assertEquals(receives, receiveWaits, what);
        }
        assertEquals(sent.keySet(), posted.keySet(), what);
        for (Map.Entry<Long, List<Long>> e : sent.entrySet()) {
            List<Long> in = posted.get(e.getKey());
            assertEquals(e.getValue().size(), in.size(), what + ": messages and receives of one pair");
            for (int k = 0; k < in.size(); k++) {
                assertTrue(e.getValue().get(k) <= in.get(k), what + ": a message larger than its receive");
            }
        }
    }

    /** Whether an operation lies in the member's send buffer, receive buffer or scratch space. */
    private static boolean within(TraceRecord r, Collective c, long m, int p, boolean root, long[] blocks, long scratch) {
        long send = Math.max(c.sendExtent(m, p, root, blocks), c.recvExtent(m, p, root, blocks));
        return r.addr() >= SEND && r.addr() + r.len() <= SEND + send && r.addr() < RECV
                || r.addr() >= RECV && r.addr() + r.len() <= RECV + Math.max(send, m)
                || r.addr() + r.len() <= scratch;
    }

    /** Blocks of uneven size: member j's block is (j+1) * m / p bytes, at least one. */
    private static long[] blocks(Collective c, int p, long m, int me, int root) {
        long[] b = new long[4 * p];
        long off = 0;
        for (int j = 0; j < p; j++) {
            long mine = Math.max(1, (me + 1) * m / p);
            long theirs = Math.max(1, (j + 1) * m / p);
            switch (c) {
                case ALLGATHERV -> {
                    b[4 * j] = mine;
                    b[4 * j + 2] = theirs;
                    b[4 * j + 3] = off;
                    off += theirs;
                }
                case GATHERV -> {
                    b[4 * j] = mine;
                    if (me == root) {
                        b[4 * j + 2] = theirs;
                        b[4 * j + 3] = off;
                        off += theirs;
                    }
                }
                case SCATTERV -> {
                    if (me == root) {
                        b[4 * j] = theirs;
                        b[4 * j + 1] = off;
                        off += theirs;
                    }
                    b[4 * j + 2] = mine;
                }
                case REDUCE_SCATTER -> {
                    // every member gives the same counts: member j's share of the result
                    b[4 * j] = theirs;
                    b[4 * j + 1] = off;
                    b[4 * j + 2] = theirs;
                    off += theirs;
                }
                case ALLTOALLV -> {
                    // member me sends f(me, j) to j and receives f(j, me) from j
                    b[4 * j] = Math.max(1, (me + j + 1) * m / p);
                    b[4 * j + 1] = 2 * m * j;
                    b[4 * j + 2] = Math.max(1, (j + me + 1) * m / p);
                    b[4 * j + 3] = 2 * m * j;
                }
                default -> throw new AssertionError(c);
            }
        }
        return b;
    }

    private static long pair(int from, int to) {
        return ((long) from << 32) | to;
    }
}
