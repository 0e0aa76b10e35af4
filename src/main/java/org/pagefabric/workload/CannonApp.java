package org.pagefabric.workload;

import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.sim.process.ProcessContext;

/**
 * Cannon's matrix multiplication C = A B on a q x q process grid (q = 2: 4 nodes) with results
 * accumulated on remote nodes by puts (004 §4.3). Node (i, l) owns blocks A_il, B_il and C_il
 * of n/q x n/q doubles. A stays where it is; in step s of a multiplication node (i, l) receives
 * B_lj, j = (i + l + s) mod q, from its owner (l, j), computes the partial product A_il B_lj
 * and accumulates it into C_ij on node (i, j): by a put into that node's accumulation buffer,
 * which the owner adds into C after the step's barrier. Cannon's diagonal schedule means every
 * B block goes to exactly one node per step and every C block receives from at most one node,
 * so no buffer is written twice in a step.
 *
 * <p>Puts carry one block row (n/q doubles) each, as a Titanium copy of a 2-D block issues one
 * put per contiguous row. With q = 2, a multiplication moves 6 B blocks and 4 partial products
 * between nodes (the other 6 transfers are local), so it issues 10 n/q puts: at n = 1000 that is
 * 5000 puts, and {@value #MULTIPLICATIONS} multiplications give the 1 500 000 puts of 004
 * Table 3. {@code problem_scale} scales the number of multiplications (at least one).
 */
final class CannonApp implements TitaniumAppWorkload.App {
    /** Process grid side: 4 nodes. */
    static final int Q = 2;
    /** Matrix order. */
    static final long N = 1000;
    /** Multiplications at problem_scale 1. */
    static final int MULTIPLICATIONS = 300;
    private static final long TAG = 0xCA77_0000_0000_0000L;

    private final long b = N / Q;
    private final long blockBytes = b * b * Double.BYTES;
    private final long rowBytes = b * Double.BYTES;
    private final int multiplications;
    private final long flopPs;

    CannonApp(double scale, long flopPs) {
        this.multiplications = (int) Math.max(1, Math.round(MULTIPLICATIONS * scale));
        this.flopPs = flopPs;
    }

    // Segment layout, in blocks: A, B (source of B transfers), T (partial product), Bin (B
    // received), Cacc (partial product received), C.
    private long a() {
        return 0;
    }

    private long bBlock() {
        return blockBytes;
    }

    private long t() {
        return 2 * blockBytes;
    }

    private long bIn() {
        return 3 * blockBytes;
    }

    private long cAcc() {
        return 4 * blockBytes;
    }

    @Override
    public int ranks() {
        return Q * Q;
    }

    @Override
    public long segmentBytes() {
        return 6 * blockBytes;
    }

    @Override
    public void fill(Rank r) {
        DataCheck.fill(r, bBlock(), blockBytes, tag(r.id(), 0));
        DataCheck.fill(r, t(), blockBytes, tag(r.id(), 1));
    }

    private static long tag(int rank, int area) {
        return TAG + ((long) rank << 8) + area;
    }

    @Override
    public void run(ProcessContext ctx, Rank me, Job job, AppPuts puts, DisseminationBarrier barrier,
                    ComputeTime compute) {
        int x = me.id() / Q;
        int y = me.id() % Q;
        for (int m = 0; m < multiplications; m++) {
            for (int s = 0; s < Q; s++) {
                // As owner of B_xy: send it to node (i, x) with y = (i + x + s) mod q.
                int i = Math.floorMod(y - x - s, Q);
                Rank bTarget = job.rank(i * Q + x);
                if (bTarget != me) {
                    sendBlock(ctx, me, bTarget, bBlock(), bIn(), tag(me.id(), 0), puts);
                }
                barrier.await(ctx, me);
                compute.spend(ctx, me, b * b * b * flopPs);
                // As node (x, y) = (i, l): the partial product belongs to C_xj on node (x, j).
                int j = (x + y + s) % Q;
                boolean remoteAccumulate = j != y;
                if (remoteAccumulate) {
                    sendBlock(ctx, me, job.rank(x * Q + j), t(), cAcc(), tag(me.id(), 1), puts);
                } else {
                    compute.spend(ctx, me, b * b * flopPs);
                }
                barrier.await(ctx, me);
                // The partial product another node put here is added into C.
                if (Math.floorMod(y - x - s, Q) != y) {
                    compute.spend(ctx, me, b * b * flopPs);
                }
            }
        }
    }

    private void sendBlock(ProcessContext ctx, Rank me, Rank to, long from, long into, long tag, AppPuts puts) {
        for (long off = 0; off < blockBytes; off += rowBytes) {
            puts.put(ctx, me, to, from + off, into + off, rowBytes, tag, from);
        }
    }
}
