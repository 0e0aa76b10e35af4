package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.param.CpuParameters;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.Metric;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * The two Titanium applications of 004 §4.3 (Table 3) as put streams with their computation:
 * {@code app = cannon}, Cannon's matrix multiplication on 4 nodes with results accumulated on
 * remote nodes ({@link CannonApp}: 1 500 000 puts at {@code problem_scale} 1), and
 * {@code app = bitonic}, a bitonic sort of integers on 8 nodes ({@link BitonicApp}: 2 125 008
 * puts). Every put is counted as it is issued by the algorithm's communication, timed, checked
 * end to end and classified by what the policy did for it: a handshake first (a Firehose move,
 * a rendezvous pin request) or one-sided at once. Computation is charged from the profile
 * ({@code cpu.multiply_add}, {@code cpu.sort_compare}); phases end in a dissemination barrier over
 * active messages.
 *
 * <p>Metrics beyond the common ones: {@code runtime_s} (until the last rank finishes),
 * {@code compute_s} (the time a rank spends in computation phases, mean over ranks),
 * {@code puts_total}, {@code puts_handshake} and {@code puts_onesided} with their shares in
 * percent and mean latencies; and, under a policy that publishes them (Firehose), its moves
 * ({@link Metric}):
 * {@code move_time_us} (mean requester time of a miss's move, from the miss to the reply),
 * {@code move_handler_us} (mean time in the remote handler), {@code move_time_fifo_us} (handler
 * time of moves that pinned nothing), {@code move_pin_delay_us} (handler time per bucket pinned
 * beyond a pinless move's work), {@code requester_bookkeeping_us}, {@code am_round_trip_us}
 * (a move request's round trip without the handler's time), {@code firehoses_detached} (firehoses
 * a miss moved away from a mapped bucket instead of attaching free ones) and {@code move_unpins}
 * (move requests whose handler unpinned a bucket). Blank where they do not apply.
 */
public final class TitaniumAppWorkload extends AbstractWorkload {
    /** Column name of the application. */
    public static final String APP = "app";
    /** Column name of the problem scale. */
    public static final String SCALE = "problem_scale";

    /** The metric columns this workload adds. */
    static final List<String> EXTRA = List.of("runtime_s", "compute_s", "puts_total", "puts_handshake", "puts_handshake_pct",
            "put_latency_handshake_us", "puts_onesided", "puts_onesided_pct", "put_latency_onesided_us", "moves",
            "move_time_us", "move_handler_us", "move_time_fifo_us", "move_pin_delay_us", "requester_bookkeeping_us",
            "am_round_trip_us", "firehoses_detached", "move_unpins");

    private static final List<WorkloadParameter> PARAMETERS = List.of(
            WorkloadParameter.choice(APP, "the application: cannon (matrix multiplication, 4 nodes) or bitonic (sort, 8"
                    + " nodes)", "cannon", "bitonic"),
            WorkloadParameter.decimalAbove(SCALE, 1.0, "", "share of the full problem (1 = 004 Table 3's put counts;"
                    + " cannon scales its multiplications, bitonic its array)", 0, 1));

    /** One application: its node count, memory, data and rank body. */
    interface App {
        /** Nodes it runs on. */
        int ranks();

        /** Segment bytes each rank needs. */
        long segmentBytes();

        /** Writes the content tags of the rank's source areas. */
        void fill(Rank r);

        /** The body of one rank. */
        void run(ProcessContext ctx, Rank me, Job job, AppPuts puts, DisseminationBarrier barrier, ComputeTime compute);
    }

    /** The workload with its declared metadata. */
    public TitaniumAppWorkload() {
        super(WorkloadDescriptor.of("titanium-app", "Titanium applications of 004 §4.3 (Cannon on 4 nodes, bitonic"
                + " sort on 8): run time and put latency by put type").ranks(4).ranks(p -> app(p, null).ranks())
                .parameters(PARAMETERS).lowerIsBetter("runtime_s").metrics(PointRun.metricsThen(EXTRA))
                .segment(p -> Math.ceilDiv(app(p, null).segmentBytes(), Kernel.PAGE_SIZE) * Kernel.PAGE_SIZE)
                // its transfers are one-sided puts
                .requires(Capability.PUT).build());
    }

    private static App app(Params params, org.pagefabric.config.Profile profile) {
        double scale = params.doubleValue(SCALE);
        long flop = profile == null ? 0 : profile.time(CpuParameters.MULTIPLY_ADD);
        long compare = profile == null ? 0 : profile.time(CpuParameters.SORT_COMPARE);
        return switch (params.choice(APP)) {
            case "bitonic" -> new BitonicApp(scale, compare);
            default -> new CannonApp(scale, flop);
        };
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        App app = app(params, job.cluster().profile());
        AppPuts puts = new AppPuts(job, latencies);
        DisseminationBarrier barrier = new DisseminationBarrier(job);
        ComputeTime compute = new ComputeTime(job.ranks().size());
        long[] finished = new long[job.ranks().size()];
        for (Rank r : job.ranks()) {
            app.fill(r);
        }
        for (Rank r : job.ranks()) {
            new SimProcess(job.simulator(), r.node(), "rank" + r.id(), ctx -> {
                app.run(ctx, r, job, puts, barrier, compute);
                finished[r.id()] = ctx.now();
            }).start();
        }
        return Run.of(puts::verified, () -> metricsOf(job, puts, compute, finished));
    }

    private static Map<String, Object> metricsOf(Job job, AppPuts puts, ComputeTime compute, long[] finished) {
        long end = 0;
        for (long f : finished) {
            end = Math.max(end, f);
        }
        long total = puts.puts();
        long hs = puts.handshake().count();
        long os = puts.oneSided().count();
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("runtime_s", round(end / (double) Time.S));
        m.put("compute_s", round(compute.meanPs() / Time.S));
        m.put("puts_total", total);
        m.put("puts_handshake", hs);
        m.put("puts_handshake_pct", total == 0 ? null : round(100.0 * hs / total));
        m.put("put_latency_handshake_us", hs == 0 ? null : round(Time.toMicros(Math.round(puts.handshake().mean()))));
        m.put("puts_onesided", os);
        m.put("puts_onesided_pct", total == 0 ? null : round(100.0 * os / total));
        m.put("put_latency_onesided_us", os == 0 ? null : round(Time.toMicros(Math.round(puts.oneSided().mean()))));
        RegistrationPolicy policy = job.policy();
        m.put("moves", count(policy, Metric.MOVES));
        Double request = mean(policy, Metric.MOVE_ROUND_TRIP);
        Double handler = mean(policy, Metric.MOVE_HANDLER_TIME);
        m.put("move_time_us", mean(policy, Metric.MOVE_TIME));
        m.put("move_handler_us", handler);
        m.put("move_time_fifo_us", mean(policy, Metric.PINLESS_MOVE_HANDLER_TIME));
        m.put("move_pin_delay_us", mean(policy, Metric.PIN_DELAY));
        m.put("requester_bookkeeping_us", mean(policy, Metric.MISS_BOOKKEEPING));
        m.put("am_round_trip_us", request == null || handler == null ? null : round(request - handler));
        m.put("firehoses_detached", count(policy, Metric.DETACHES));
        m.put("move_unpins", count(policy, Metric.UNPIN_MOVES));
        return m;
    }

    /** The policy's count, {@code null} if it does not publish one. */
    private static Long count(RegistrationPolicy policy, Metric metric) {
        long n = policy.count(metric);
        return n == RegistrationPolicy.NOT_COUNTED ? null : n;
    }

    /** The policy's mean, rounded; {@code null} if it publishes none or has no sample. */
    private static Double mean(RegistrationPolicy policy, Metric metric) {
        double x = policy.mean(metric);
        return Double.isNaN(x) ? null : round(x);
    }

    private static double round(double x) {
        return Math.round(x * 1000.0) / 1000.0;
    }
}
