package org.pagefabric.workload;

import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.ProcessMemory;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * RDMA writes of one size from the start of a source rank's segment to page-aligned places in the
 * first {@code hot} bytes of a target's segment, each checked where it landed: the access pattern
 * of the workloads that measure what the target's memory management (reclaim, a host's reclaim)
 * does to a registration.
 */
final class RandomPagePuts {
    private final Rank src;
    private final Rank dst;
    private final long size;
    private final long hot;
    private final long tag;

    /** Puts of {@code size} bytes into the first {@code hot} bytes of {@code dst}'s segment, tagged from {@code tag}. */
    RandomPagePuts(Rank src, Rank dst, long size, long hot, long tag) {
        this.src = src;
        this.dst = dst;
        this.size = size;
        this.hot = hot;
        this.tag = tag;
    }

    /** Writes the whole hot area once, untimed, so that every page of it is touched; whether all completed. */
    boolean warm(ProcessContext ctx) {
        boolean ok = true;
        for (long off = 0; off + size <= hot; off += Math.max(size, Kernel.PAGE_SIZE)) {
            DataCheck.fill(src, 0, size, tag);
            src.write(ctx, dst, 0, off, size, -1);
            ok &= src.awaitSend(ctx).status() == Outcome.SUCCESS;
        }
        return ok;
    }

    /**
     * {@code puts} writes to pages drawn from {@code targets}, each timed into {@code latencies};
     * whether every one completed and left its bytes at the target.
     */
    boolean timed(ProcessContext ctx, int puts, RandomStream targets, LatencyHistogram latencies) {
        ProcessMemory mem = dst.memory();
        long pages = (hot - size) / Kernel.PAGE_SIZE + 1;
        boolean ok = true;
        for (int i = 0; i < puts; i++) {
            long t = tag + 1 + i;
            long to = targets.nextLong(pages) * Kernel.PAGE_SIZE;
            DataCheck.fill(src, 0, size, t);
            long t0 = ctx.now();
            src.write(ctx, dst, 0, to, size, i);
            CompletionEntry wc = src.awaitSend(ctx);
            latencies.record(ctx.now() - t0);
            ok &= wc.status() == Outcome.SUCCESS
                    && mem.verifyTag(dst.segment() + to, size, t, 0);
        }
        return ok;
    }
}
