package org.pagefabric.workload;

import java.util.List;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * Firehose's small-put latency test (004 §4.4, Fig. 3): rank 0 puts {@code size_B} bytes (8 by
 * default), {@code iterations} times, to rank 1, one at a time, each to a target drawn uniformly at random from a remote
 * working set and from a source drawn at random from a local area (MAXVICTIM in the paper, so
 * that the remote working set drives the registration work). Targets and sources are aligned
 * as the data they carry: on the largest power of two dividing the size, at most a page, so an
 * 8-byte put is one naturally aligned 8-byte word (004 §3.1: GAS languages' small remote
 * operations are language-level scalar accesses) and never straddles two pages. Latency is the
 * time from asking for the put (registration work included) to its completion.
 */
public final class FhPutLatencyWorkload extends AbstractWorkload {
    private static final List<WorkloadParameter> PARAMETERS = List.of(StandardParameters.size(8),
            StandardParameters.iterations(), WorkingSetPuts.WORKING_SET_PARAM, WorkingSetPuts.SOURCE_AREA_PARAM,
            WorkingSetPuts.WARM_UP_PARAM);

    /** The workload with its declared metadata. */
    public FhPutLatencyWorkload() {
        super(WorkloadDescriptor.of("fh-put-latency", "puts from rank 0 to random targets in rank 1's working set,"
                + " one at a time: latency of each").parameters(PARAMETERS).lowerIsBetter("latency_us")
                .metrics(PointRun.metricsThen(WorkingSetPuts.EXTRA_METRICS)).segment(WorkingSetPuts::segmentBytes)
                // its transfers are one-sided puts
                .requires(Capability.PUT).build());
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        WorkingSetPuts w = new WorkingSetPuts(job, params, "fh-put-latency");
        long warm = w.warmUpPuts();
        long align = Math.min(Long.lowestOneBit(w.size), Kernel.PAGE_SIZE);
        new SimProcess(job.simulator(), w.source.node(), "rank0", ctx -> {
            for (long i = 0; i < warm + w.puts; i++) {
                long to = i < warm ? w.warmUpTarget(i) : w.randomTarget(align);
                long from = i < warm ? w.warmUpSource(i) : w.randomSource(align);
                if (i == warm) {
                    w.startTimedPhase();
                }
                long t0 = ctx.now();
                w.source.write(ctx, w.target, from, to, w.size, i);
                CompletionEntry wc = w.source.awaitSend(ctx);
                if (i >= warm) {
                    latencies.record(ctx.now() - t0);
                }
                w.check(wc, from, to);
            }
        }).start();
        return Run.of(() -> w.verified(warm + w.puts), w::extraMetrics);
    }
}
