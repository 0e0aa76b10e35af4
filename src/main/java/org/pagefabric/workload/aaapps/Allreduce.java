package org.pagefabric.workload.aaapps;

import org.pagefabric.sim.process.ProcessContext;

/**
 * A sum Allreduce of a vector of counts over the {@link AppFabric}: recursive doubling among the
 * largest power of two of processes, the others folded in before and served after (the usual
 * scheme for any process count). Every process ends with the same exact sums.
 */
final class Allreduce {
    private Allreduce() {
    }

    /** Sums {@code local} over all {@code processes}; returns the sums (a new array), charging the additions. */
    static long[] sum(ProcessContext ctx, AppFabric fabric, int rank, int processes, long[] local, long memoryPs) {
        long[] vec = local.clone();
        int pof2 = Integer.highestOneBit(processes);
        int rem = processes - pof2;
        int last = Integer.numberOfTrailingZeros(pof2) + 1;
        long addPs = memoryPs * Math.ceilDiv(vec.length * 8L, 64);
        if (rank >= pof2) {
            fabric.sendVector(ctx, rank, rank - pof2, 0, vec);
            return fabric.awaitVector(ctx, rank, last, vec.length);
        }
        if (rank < rem) {
            add(vec, fabric.awaitVector(ctx, rank, 0, vec.length));
            ctx.sleep(addPs);
        }
        int round = 1;
        for (int mask = 1; mask < pof2; mask <<= 1, round++) {
            int partner = rank ^ mask;
            fabric.sendVector(ctx, rank, partner, round, vec);
            add(vec, fabric.awaitVector(ctx, rank, round, vec.length));
            ctx.sleep(addPs);
        }
        if (rank < rem) {
            fabric.sendVector(ctx, rank, rank + pof2, last, vec);
        }
        return vec;
    }

    private static void add(long[] into, long[] from) {
        for (int i = 0; i < into.length; i++) {
            into[i] += from[i];
        }
    }
}
