package org.pagefabric.examples.echo;

import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;
import org.pagefabric.workload.AbstractWorkload;
import org.pagefabric.workload.DataCheck;
import org.pagefabric.workload.FailedOperations;
import org.pagefabric.workload.Params;
import org.pagefabric.workload.StandardParameters;
import org.pagefabric.workload.WorkloadDescriptor;
import org.pagefabric.workload.WorkloadParameter;

/**
 * Example workload from outside PageFabric's packages: rank 0 puts {@code size_B} bytes to rank
 * 1 and gets them back, {@code gap_us} of computation apart; the latency is one round trip, and
 * the run verifies that what came back is what was put.
 */
public final class EchoWorkload extends AbstractWorkload {
    /** The command-line name. */
    public static final String NAME = "example-echo";
    /** Computation between two round trips, microseconds. */
    static final String GAP = "gap_us";

    /** The workload, declared once. */
    public EchoWorkload() {
        super(WorkloadDescriptor.of(NAME, "example: rank 0 puts size_B to rank 1 and gets it back, gap_us apart:"
                        + " time per round trip")
                .parameters(StandardParameters.size(4096), StandardParameters.iterations(),
                        WorkloadParameter.integer(GAP, 0, "us", "computation between two round trips", 0, 1_000_000))
                .lowerIsBetter("latency_us")
                // rank 1 receives the put at offset 0; rank 0 gets it back one buffer further on
                .segment(p -> 2 * buffer(p))
                .requires(Capability.PUT, Capability.GET)
                .build());
    }

    private static long buffer(Params p) {
        return Math.max(StandardParameters.size(p), Kernel.PAGE_SIZE);
    }

    @Override
    protected Run start(Job job, Params p, LatencyHistogram latencies) {
        long size = StandardParameters.size(p);
        int iterations = StandardParameters.iterations(p);
        long gapPs = p.longValue(GAP) * Time.US;
        long back = buffer(p);
        Rank a = job.rank(0);
        Rank b = job.rank(1);
        DataCheck.fill(a, 0, size, 0xEC40_0000L + size);
        FailedOperations failed = new FailedOperations();
        new SimProcess(job.simulator(), a.node(), "rank0", ctx -> {
            for (int i = 0; i < iterations; i++) {
                long t0 = ctx.now();
                a.write(ctx, b, 0, 0, size, 2L * i);
                failed.completed(a.awaitSend(ctx).status());
                a.read(ctx, b, 0, back, size, 2L * i + 1);
                failed.completed(a.awaitSend(ctx).status());
                latencies.record(ctx.now() - t0);
                if (gapPs > 0) {
                    a.compute(ctx, gapPs);
                }
            }
        }).start();
        return Run.of(() -> failed.count() == 0 && DataCheck.same(a, 0, a, back, size));
    }
}
