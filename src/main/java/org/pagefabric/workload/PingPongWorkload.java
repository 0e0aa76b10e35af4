package org.pagefabric.workload;

import java.util.List;
import java.util.Map;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.process.ProcessContext;
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
                ok[0] &= echo(ctx, b, a, half, size, i);
            }
        }).start();
        new SimProcess(job.simulator(), a.node(), "rank0", ctx -> {
            for (int i = 0; i < rounds; i++) {
                long t0 = ctx.now();
                ok[0] &= ping(ctx, a, b, half, size, i);
                if (i >= WARMUP) {
                    long oneWay = (ctx.now() - t0) / 2;
                    latencies.record(oneWay);
                    timed[0] += oneWay;
                }
            }
        }).start();
        return Run.of(() -> Run.perSecond((double) size * iterations, timed[0]),
                () -> ok[0] && DataCheck.same(a, 0, b, half, size) && DataCheck.same(a, 0, a, half, size), () -> null,
                Map::of);
    }

    /**
     * Round {@code i} on the pinging side: posts the receive of the echo at {@code half}, sends
     * {@code size} bytes from 0 and waits for both; whether both completed whole.
     */
    static boolean ping(ProcessContext ctx, Rank a, Rank b, long half, long size, int i) {
        a.receive(ctx, b, half, size, i);
        a.send(ctx, b, 0, size, i);
        boolean ok = a.awaitSend(ctx).status() == Outcome.SUCCESS;
        CompletionEntry back = a.awaitReceive(ctx);
        return ok & (back.status() == Outcome.SUCCESS && back.bytes() == size);
    }

    /**
     * Round {@code i} on the echoing side: receives {@code size} bytes at {@code half} and sends
     * them back from there; whether both completed whole.
     */
    static boolean echo(ProcessContext ctx, Rank b, Rank a, long half, long size, int i) {
        b.receive(ctx, a, half, size, i);
        CompletionEntry got = b.awaitReceive(ctx);
        boolean ok = got.status() == Outcome.SUCCESS && got.bytes() == size;
        b.send(ctx, a, half, size, i);
        return ok & b.awaitSend(ctx).status() == Outcome.SUCCESS;
    }
}
