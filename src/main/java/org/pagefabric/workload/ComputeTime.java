package org.pagefabric.workload;

import org.pagefabric.comm.Rank;
import org.pagefabric.sim.process.ProcessContext;

/**
 * The computation phases of an application's ranks: each rank spends the time its phase costs
 * and the time is tallied per rank, so that a run's total can be split into computation and
 * the rest (communication, registration, waiting at barriers).
 */
final class ComputeTime {
    private final long[] spentPs;

    /** A tally for {@code ranks} ranks. */
    ComputeTime(int ranks) {
        this.spentPs = new long[ranks];
    }

    /** Rank {@code rank} computes for {@code ps} picoseconds. */
    void spend(ProcessContext ctx, Rank rank, long ps) {
        if (ps > 0) {
            ctx.sleep(ps);
            spentPs[rank.id()] += ps;
        }
    }

    /** The mean over ranks of the time spent computing, picoseconds. */
    double meanPs() {
        double sum = 0;
        for (long s : spentPs) {
            sum += s;
        }
        return spentPs.length == 0 ? 0 : sum / spentPs.length;
    }
}
