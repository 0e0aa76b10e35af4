package org.pagefabric.workload;

import java.util.List;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Job;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * Firehose's bulk-put bandwidth test (004 §4.4, Fig. 4): rank 0 streams {@code size_B}-byte puts
 * (64 KiB by default) to rank 1, {@value #WINDOW} in flight as the {@code bandwidth} workload
 * keeps them, each to a target drawn uniformly at random from the working set. Targets and
 * sources lie on multiples of the put size, as bulk buffers do; a target another put in flight
 * is writing is drawn again, so each put's bytes can be checked at its completion.
 */
public final class FhPutBandwidthWorkload extends AbstractWorkload {
    /** Puts kept in flight, as in the {@code bandwidth} workload. */
    public static final int WINDOW = BandwidthWorkload.WINDOW;
    private static final List<WorkloadParameter> PARAMETERS = List.of(StandardParameters.size(65536),
            StandardParameters.iterations(), WorkingSetPuts.WORKING_SET_PARAM, WorkingSetPuts.SOURCE_AREA_PARAM,
            WorkingSetPuts.WARM_UP_PARAM);

    /** The workload with its declared metadata. */
    public FhPutBandwidthWorkload() {
        super(WorkloadDescriptor.of("fh-put-bandwidth", "puts from rank 0 to random targets in rank 1's working set, "
                + WINDOW + " in flight: bytes per second").parameters(PARAMETERS).higherIsBetter("bandwidth_MBps")
                .segment(WorkingSetPuts::segmentBytes)
                // its transfers are one-sided puts
                .requires(Capability.PUT).build());
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        WorkingSetPuts w = new WorkingSetPuts(job, params, "fh-put-bandwidth");
        if (w.workingSet / w.size < WINDOW) {
            throw new IllegalArgumentException("working_set_MiB must hold at least " + WINDOW + " puts of " + w.size
                    + " B, one per put in flight");
        }
        long warm = w.warmUpPuts();
        long total = warm + w.puts;
        long[] span = new long[2];
        new SimProcess(job.simulator(), w.source.node(), "rank0", ctx -> {
            long[] to = new long[WINDOW];
            long[] from = new long[WINDOW];
            long[] posted = new long[WINDOW];
            long next = 0;
            long done = 0;
            while (done < total) {
                if (next < total && next - done < WINDOW) {
                    if (next == warm) {
                        span[0] = ctx.now(); // the timed puts start once the warm-up's are posted
                        w.startTimedPhase();
                    }
                    int s = (int) (next % WINDOW);
                    to[s] = next < warm ? w.warmUpTarget(next) : freeTarget(w, to, next, done);
                    from[s] = next < warm ? w.warmUpSource(next) : w.randomSource(w.size);
                    posted[s] = ctx.now();
                    w.source.write(ctx, w.target, from[s], to[s], w.size, next);
                    next++;
                    continue;
                }
                CompletionEntry wc = w.source.awaitSend(ctx);
                int s = (int) (wc.wrId() % WINDOW);
                if (wc.wrId() >= warm) {
                    latencies.record(ctx.now() - posted[s]);
                }
                w.check(wc, from[s], to[s]);
                done++;
            }
            span[1] = ctx.now();
        }).start();
        return new Run() {
            @Override
            public double bytesPerSecond() {
                return Run.perSecond((double) w.size * w.puts, span[1] - span[0]);
            }

            @Override
            public boolean verified() {
                return w.verified(total);
            }
        };
    }

    /** A random target slot no put in flight ({@code done..next-1}) is writing. */
    private static long freeTarget(WorkingSetPuts w, long[] to, long next, long done) {
        while (true) {
            long t = w.randomTarget(w.size);
            boolean busy = false;
            for (long i = done; i < next; i++) {
                busy |= to[(int) (i % WINDOW)] == t;
            }
            if (!busy) {
                return t;
            }
        }
    }
}
