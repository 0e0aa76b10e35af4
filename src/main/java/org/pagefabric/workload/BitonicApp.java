package org.pagefabric.workload;

import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.sim.process.ProcessContext;

/**
 * A parallel bitonic sort of 32-bit integers on 8 nodes (004 §4.3): the N integers are divided
 * equally, each node quicksorts its share, and the shares are merged by compare-and-exchange:
 * in the log2(8) = 3 stages k, steps j = k..0 pair each node with node {@code rank XOR 2^j};
 * partners put their whole sorted share into each other's receive buffer, meet at a barrier and
 * each keeps the lower or upper half of the merge. That is 6 exchange steps of the whole local
 * array per node.
 *
 * <p>Each put carries one integer ({@value #PUT_BYTES} bytes), as a GAS-language compare-exchange
 * writes the partner's array element by element (004 §3.1: GAS applications issue small, generally
 * at most 8-byte, remote operations); a bulk copy would issue 48 puts in all, not millions. With
 * N = 354 168 (44 271 integers, 177 KB, per node), a step is 44 271 puts per node and the sort
 * issues 6 x 8 x 44 271 = 2 125 008 puts, the 2 125 000 of 004 Table 3 within 0.0004 % (the
 * exact count cannot arise: it is not a multiple of 48). {@code problem_scale} scales N. Values are
 * carried as content tags, not sorted for real: the put stream of a merge-split exchange does not depend on them, and the
 * sort and merges are charged {@code cpu.sort_compare} per comparison: the expected count of a
 * quicksort of n distinct keys in random order, 2 (n + 1) H(n) - 4 n (Knuth, TAOCP vol. 3,
 * §5.2.2), and n per merge-split (the kept half of two sorted runs of n).
 */
final class BitonicApp implements TitaniumAppWorkload.App {
    /** Nodes. */
    static final int NODES = 8;
    /** Integers per node at problem_scale 1. */
    static final long PER_NODE = 44_271;
    /** Bytes per put. */
    static final long PUT_BYTES = Integer.BYTES;
    private static final long TAG = 0xB170_0000_0000_0000L;

    private final long perNode;
    private final long arrayBytes;
    private final long comparePs;

    BitonicApp(double scale, long comparePs) {
        this.perNode = Math.max(PUT_BYTES / Integer.BYTES, Math.round(PER_NODE * scale));
        this.arrayBytes = perNode * Integer.BYTES;
        this.comparePs = comparePs;
    }

    /** Expected comparisons of a quicksort of {@code n} distinct keys in random order: 2 (n + 1) H(n) - 4 n. */
    static double quicksortComparisons(long n) {
        double harmonic = 0;
        for (long k = n; k >= 1; k--) {
            harmonic += 1.0 / k;
        }
        return 2.0 * (n + 1) * harmonic - 4.0 * n;
    }

    @Override
    public int ranks() {
        return NODES;
    }

    @Override
    public long segmentBytes() {
        return 2 * arrayBytes;
    }

    @Override
    public void fill(Rank r) {
        DataCheck.fill(r, 0, arrayBytes, TAG + r.id());
    }

    @Override
    public void run(ProcessContext ctx, Rank me, Job job, AppPuts puts, DisseminationBarrier barrier,
                    ComputeTime compute) {
        compute.spend(ctx, me, Math.round(quicksortComparisons(perNode) * comparePs));
        int stages = Integer.numberOfTrailingZeros(NODES);
        for (int k = 0; k < stages; k++) {
            for (int j = k; j >= 0; j--) {
                Rank partner = job.rank(me.id() ^ (1 << j));
                for (long off = 0; off < arrayBytes; off += PUT_BYTES) {
                    long len = Math.min(PUT_BYTES, arrayBytes - off);
                    puts.put(ctx, me, partner, off, arrayBytes + off, len, TAG + me.id(), 0);
                }
                barrier.await(ctx, me);
                compute.spend(ctx, me, perNode * comparePs);
            }
        }
    }
}
