package org.pagefabric.workload;

import org.pagefabric.comm.Job;
import org.pagefabric.comm.Messages;
import org.pagefabric.comm.Rank;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;

/**
 * A dissemination barrier over active messages (Hensgen, Finkel and Manber), as GASNet builds its
 * barrier from the core API: in round k each rank tells rank {@code (r + 2^k) mod P} that it
 * arrived and waits to hear the same from rank {@code (r - 2^k) mod P}; after ceil(log2 P)
 * rounds every rank knows all have arrived. Its messages travel the simulated network like any
 * other, so a barrier costs what the network and the handlers cost.
 */
final class DisseminationBarrier {
    /** Active-message handler id of an arrival (ids 40-49 belong to workloads). */
    static final int ARRIVE = 40;

    private final Job job;
    private final Messages messages;
    private final int rounds;
    /** Arrivals each rank has heard of in each round, over all barriers so far. */
    private final long[][] arrived;
    /** Barriers each rank has entered. */
    private final long[] entered;
    private final Completion[] waiting;

    DisseminationBarrier(Job job) {
        this.job = job;
        int p = job.ranks().size();
        this.rounds = 32 - Integer.numberOfLeadingZeros(Math.max(p - 1, 0));
        this.arrived = new long[p][Math.max(rounds, 1)];
        this.entered = new long[p];
        this.waiting = new Completion[p];
        this.messages = Messages.attach(job, "barrier");
        messages.register(ARRIVE, (ctx, target, source, round, a1, a2, a3) -> {
            arrive(target, (int) round);
            return 0;
        });
    }

    private void arrive(int rank, int round) {
        arrived[rank][round]++;
        Completion c = waiting[rank];
        if (c != null) {
            waiting[rank] = null;
            c.complete();
        }
    }

    /** Returns once every rank of the job has entered this barrier. */
    void await(ProcessContext ctx, Rank rank) {
        int p = job.ranks().size();
        int r = rank.id();
        long generation = ++entered[r];
        for (int k = 0; k < rounds; k++) {
            messages.request(ctx, rank, job.rank((r + (1 << k)) % p), ARRIVE, k, 0, 0, 0);
            while (arrived[r][k] < generation) {
                Completion c = new Completion("barrier");
                waiting[r] = c;
                ctx.await(c);
            }
        }
    }
}
