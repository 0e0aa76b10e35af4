package org.pagefabric.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * The time of an ODP page fault as a send sees it (001 "Initial Testing", "Execution Time
 * Breakdown (Send Requestor)"): rank 0 sends {@code size_B} bytes to rank 1, each iteration from
 * a buffer the NIC has never translated (requester fault), or with {@code responder} into one
 * (responder fault: RNR NAK, then the sender's retry). The other side's buffer is mapped in a
 * warm-up send. Under a pinning policy nothing faults, and the latency is the baseline.
 *
 * <p>Besides the send latency, the row carries the faults resolved in the timed part, their mean
 * time from the NIC's fault event to the QP's resume ({@code fault_us}) and that time split per
 * phase of the driver (interrupt, event handling, page-in, mapping update, resume). Every
 * message is checked against its source.
 */
public final class SendFaultWorkload extends AbstractWorkload {
    /** Column of the responder switch. */
    public static final String RESPONDER = "responder";
    private static final int WARMUP = 1;
    private static final long TAG = 0x5E9DFA00L;

    private static final List<WorkloadParameter> PARAMETERS = List.of(StandardParameters.size(4096),
            StandardParameters.iterations(),
            WorkloadParameter.flag(RESPONDER, false,
                    "the destination buffer is the untranslated one (a responder fault), not the source"));

    private static final List<String> METRICS;

    static {
        List<String> extra = new ArrayList<>(List.of(FaultTally.FAULT_US, FaultTally.FAULTS));
        extra.addAll(FaultTally.PHASE_COLUMNS);
        METRICS = PointRun.metricsAfterVerified(extra);
    }

    /** The workload with its declared metadata. */
    public SendFaultWorkload() {
        super(WorkloadDescriptor.of("send-fault", "send from (or into) a buffer the NIC has not translated yet: send"
                + " latency, fault time and its breakdown per driver phase").parameters(PARAMETERS)
                .lowerIsBetter("latency_us").metrics(METRICS)
                // a fixed buffer, then one fresh buffer per iteration (warm-up included), page aligned
                .segment(p -> stride(p) * (1 + WARMUP + StandardParameters.iterations(p)))
                // its transfers are two-sided sends and receives
                .requires(Capability.SEND_RECEIVE).build());
    }

    private static long stride(Params params) {
        return Math.ceilDiv(StandardParameters.size(params), Kernel.PAGE_SIZE) * Kernel.PAGE_SIZE;
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        long size = StandardParameters.size(params);
        int iterations = StandardParameters.iterations(params);
        boolean responder = params.flag(RESPONDER);
        long stride = stride(params);
        int rounds = WARMUP + iterations;
        Rank src = job.rank(0);
        Rank dst = job.rank(1);
        long[] srcOffset = new long[rounds];
        long[] dstOffset = new long[rounds];
        for (int i = 0; i < rounds; i++) {
            long fresh = (1 + i) * stride;
            srcOffset[i] = responder ? 0 : fresh;
            dstOffset[i] = responder ? fresh : 0;
        }
        if (responder) {
            DataCheck.fill(src, 0, size, TAG);
        } else {
            for (int i = 0; i < rounds; i++) {
                DataCheck.fill(src, srcOffset[i], size, TAG + i);
            }
        }
        // out-of-band: the receive is posted before the send starts, so no RNR comes from a missing receive
        Completion[] posted = new Completion[rounds];
        for (int i = 0; i < rounds; i++) {
            posted[i] = new Completion("send-fault.posted" + i);
        }
        boolean[] ok = {true};
        long[] timed = new long[1];
        FaultTally[] tally = new FaultTally[2];
        new SimProcess(job.simulator(), dst.node(), "rank1", ctx -> {
            for (int i = 0; i < rounds; i++) {
                dst.receive(ctx, src, dstOffset[i], size, i);
                posted[i].complete();
                var wc = dst.awaitReceive(ctx);
                ok[0] &= wc.status() == Outcome.SUCCESS && wc.bytes() == size
                        && DataCheck.same(src, srcOffset[i], dst, dstOffset[i], size);
            }
        }).start();
        new SimProcess(job.simulator(), src.node(), "rank0", ctx -> {
            for (int i = 0; i < rounds; i++) {
                ctx.await(posted[i]);
                if (i == WARMUP) {
                    tally[0] = FaultTally.now(job);
                }
                long t0 = ctx.now();
                src.send(ctx, dst, srcOffset[i], size, i);
                var wc = src.awaitSend(ctx);
                ok[0] &= wc.status() == Outcome.SUCCESS;
                if (i >= WARMUP) {
                    latencies.record(ctx.now() - t0);
                    timed[0] += ctx.now() - t0;
                }
            }
            tally[1] = FaultTally.now(job);
        }).start();
        return Run.of(() -> Run.perSecond((double) size * iterations, timed[0]), () -> ok[0] && tally[1] != null,
                () -> null, () -> {
                    Map<String, Object> m = new LinkedHashMap<>();
                    FaultTally.put(tally[0], tally[1], m);
                    return m;
                });
    }
}
