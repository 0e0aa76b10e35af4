package org.pagefabric.workload;

import java.util.List;
import org.pagefabric.comm.Completion;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * Two-sided ping-pong: rank 0 sends a message, rank 1 receives it and sends it back. The
 * latency is half the round trip; the throughput is the message size over that half.
 */
public final class PingPongWorkload extends AbstractWorkload {
    private static final int WARMUP = 3;

    /** Size default 8: the smallest size of the default sweep, as latency benchmarks start. */
    private static final List<WorkloadParameter> PARAMETERS =
            List.of(StandardParameters.size(8), StandardParameters.iterations());

    /** The workload with its declared metadata. */
    public PingPongWorkload() {
        super(WorkloadDescriptor.of("pingpong", "send/receive ping-pong between rank 0 and rank 1: half round trip"
                + " and throughput").parameters(PARAMETERS).lowerIsBetter("latency_us")
                .segment(p -> 2 * Math.max(StandardParameters.size(p), Kernel.PAGE_SIZE))
                // its transfers are two-sided sends and receives
                .requires(Capability.SEND_RECEIVE).build());
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        long size = StandardParameters.size(params);
        int iterations = StandardParameters.iterations(params);
        Rank a = job.rank(0);
        Rank b = job.rank(1);
        long half = Math.max(size, Kernel.PAGE_SIZE);
        DataCheck.fill(a, 0, size, 0x9199000L + size);
        int rounds = WARMUP + iterations;
        boolean[] ok = {true};
        long[] timed = new long[1];
        new SimProcess(job.simulator(), b.node(), "rank1", ctx -> {
            for (int i = 0; i < rounds; i++) {
                b.receive(ctx, a, half, size, i);
                Completion got = b.awaitReceive(ctx);
                ok[0] &= got.status() == Outcome.SUCCESS && got.bytes() == size;
                b.send(ctx, a, half, size, i);
                ok[0] &= b.awaitSend(ctx).status() == Outcome.SUCCESS;
            }
        }).start();
        new SimProcess(job.simulator(), a.node(), "rank0", ctx -> {
            for (int i = 0; i < rounds; i++) {
                long t0 = ctx.now();
                a.receive(ctx, b, half, size, i);
                a.send(ctx, b, 0, size, i);
                ok[0] &= a.awaitSend(ctx).status() == Outcome.SUCCESS;
                Completion back = a.awaitReceive(ctx);
                ok[0] &= back.status() == Outcome.SUCCESS && back.bytes() == size;
                if (i >= WARMUP) {
                    long oneWay = (ctx.now() - t0) / 2;
                    latencies.record(oneWay);
                    timed[0] += oneWay;
                }
            }
        }).start();
        return new Run() {
            @Override
            public double bytesPerSecond() {
                return timed[0] == 0 ? 0 : (double) size * iterations / (timed[0] / (double) Time.S);
            }

            @Override
            public boolean verified() {
                return ok[0] && DataCheck.same(a, 0, b, half, size) && DataCheck.same(a, 0, a, half, size);
            }
        };
    }
}
