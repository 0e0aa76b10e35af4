package org.pagefabric.workload;

import java.util.List;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Job;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * Streaming RDMA write bandwidth: rank 0 keeps {@value #WINDOW} writes in flight to rank 1 and
 * posts a new one whenever one completes, as ib_write_bw does.
 */
public final class BandwidthWorkload extends AbstractWorkload {
    /** Writes kept in flight. */
    public static final int WINDOW = 16;

    /** Size default 65536: ib_write_bw's default message size. */
    private static final List<WorkloadParameter> PARAMETERS =
            List.of(StandardParameters.size(65536), StandardParameters.iterations());

    /** The workload with its declared metadata. */
    public BandwidthWorkload() {
        super(WorkloadDescriptor.of("bandwidth", "streaming RDMA writes from rank 0 to rank 1, " + WINDOW
                + " in flight: bytes per second").parameters(PARAMETERS).higherIsBetter("bandwidth_MBps")
                // its transfers are one-sided puts
                .requires(Capability.PUT).build());
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        WritePair w = WritePair.filled(job, params, 0xB4000000L);
        long[] span = new long[2];
        FailedOperations failed = new FailedOperations();
        new SimProcess(job.simulator(), w.src().node(), "rank0", ctx -> {
            long[] posted = new long[w.iterations()];
            span[0] = ctx.now();
            int next = 0;
            int done = 0;
            while (next < Math.min(WINDOW, w.iterations())) {
                posted[next] = ctx.now();
                w.src().write(ctx, w.dst(), 0, 0, w.size(), next++);
            }
            while (done < w.iterations()) {
                CompletionEntry wc = w.src().awaitSend(ctx);
                failed.completed(wc.status());
                latencies.record(ctx.now() - posted[(int) wc.wrId()]);
                done++;
                if (next < w.iterations()) {
                    posted[next] = ctx.now();
                    w.src().write(ctx, w.dst(), 0, 0, w.size(), next++);
                }
            }
            span[1] = ctx.now();
        }).start();
        return new Run() {
            @Override
            public double bytesPerSecond() {
                return Run.perSecond((double) w.size() * w.iterations(), span[1] - span[0]);
            }

            @Override
            public boolean verified() {
                return failed.count() == 0 && w.arrived();
            }

            @Override
            public String failure() {
                String f = failed.describe(w.iterations(), "puts");
                return f != null || w.arrived() ? f
                        : "the destination does not hold the bytes the puts carried";
            }
        };
    }
}
