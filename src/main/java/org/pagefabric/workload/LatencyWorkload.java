package org.pagefabric.workload;

import java.util.List;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * One-sided RDMA write latency as the initiator sees it: rank 0 writes a message to rank 1 and
 * waits for its completion, one at a time (the "user-perceived latency" of 000 §V).
 */
public final class LatencyWorkload extends AbstractWorkload {
    private static final int WARMUP = 5;

    /** Size default 8: the smallest size of the default sweep, as latency benchmarks start. */
    private static final List<WorkloadParameter> PARAMETERS =
            List.of(StandardParameters.size(8), StandardParameters.iterations());

    /** The workload with its declared metadata. */
    public LatencyWorkload() {
        super(WorkloadDescriptor.of("latency", "RDMA write from rank 0 to rank 1, one at a time: time from posting"
                + " to completion").parameters(PARAMETERS).lowerIsBetter("latency_us")
                // its transfers are one-sided puts
                .requires(Capability.PUT).build());
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        WritePair w = WritePair.filled(job, params, 0x5EED0000L);
        boolean[] ok = {true};
        new SimProcess(job.simulator(), w.src().node(), "rank0", ctx -> {
            for (int i = 0; i < WARMUP + w.iterations(); i++) {
                long t0 = ctx.now();
                w.src().write(ctx, w.dst(), 0, 0, w.size(), i);
                CompletionEntry wc = w.src().awaitSend(ctx);
                ok[0] &= wc.status() == Outcome.SUCCESS;
                if (i >= WARMUP) {
                    latencies.record(ctx.now() - t0);
                }
            }
        }).start();
        return Run.of(() -> ok[0] && w.arrived());
    }
}
