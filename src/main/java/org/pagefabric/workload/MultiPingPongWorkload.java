package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.cpu.Core;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.InterruptPlacement;
import org.pagefabric.reg.Metric;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * Several ping-pong pairs at once between two nodes sharing one NIC each (003 §4.3: one process
 * per core, all sharing a single 10G NIC). Pair {@code k} is rank {@code 2k} on node 0 and rank
 * {@code 2k+1} on node 1, both on core {@code k} of their node. Under Open-MX the receive bottom
 * halves run either on the core of the process they serve ({@code interrupts: spread}) or all on
 * core 0 ({@code single-core}, interrupts bound to one core), which also runs pair 0. The throughput
 * is the pairs' aggregate over the timed phase (one pair: the ping-pong's own figure); a competing
 * interrupt load ({@code irq_load_pct} of core 0, in slices every {@code irq_period_us}) can take
 * that core further. A core busy with bottom halves pins slowly, and under overlapped pinning a
 * pull reply for a page not pinned yet is dropped: the Overlap-Miss counter says how often.
 * Placement and the miss counts are what the policy offers ({@link InterruptPlacement},
 * {@link Metric#OVERLAP_MISSES}); under a policy that offers neither, processes run where the
 * policy puts them and the counts are 0.
 */
public final class MultiPingPongWorkload extends AbstractWorkload {
    /** Column of the number of pairs (processes per node). */
    public static final String PROCESSES = "processes_per_node";
    /** Column of the bottom-half placement. */
    public static final String INTERRUPTS = "interrupts";
    /** Column of the competing interrupt load. */
    public static final String IRQ_LOAD = "irq_load_pct";
    /** Column of the competing load's period. */
    public static final String IRQ_PERIOD = "irq_period_us";
    /** Bottom halves on the core of the process they serve. */
    public static final String SPREAD = "spread";
    /** Every bottom half on core 0. */
    public static final String SINGLE_CORE = "single-core";

    private static final int WARMUP = 3;

    private static final List<WorkloadParameter> PARAMETERS = List.of(
            StandardParameters.size(1 << 20),
            StandardParameters.iterations(),
            WorkloadParameter.integer(PROCESSES, 2, "", "ping-pong pairs: processes on each of the two nodes", 1, 256),
            WorkloadParameter.choice(INTERRUPTS, SPREAD, "where receive bottom halves run: on the core of the process"
                    + " they serve (spread) or all on core 0 (single-core)", List.of(SPREAD, SINGLE_CORE)),
            WorkloadParameter.integer(IRQ_LOAD, 0, "", "competing interrupt load on core 0 of each node, percent of"
                    + " the core", 0, 95),
            WorkloadParameter.integer(IRQ_PERIOD, 10, "us", "period of the competing interrupt load's slices", 1,
                    1_000_000));

    private static final List<String> METRICS;

    static {
        METRICS = PointRun.metricsBeforeVerified(List.of("overlap_misses", "overlap_miss_fraction", "overlap_misses_per_msg",
                "handshake_rtt_us"));
    }

    /** The workload with its declared metadata. */
    public MultiPingPongWorkload() {
        super(WorkloadDescriptor.of("multi-pingpong", "concurrent send/receive ping-pong pairs between two nodes,"
                + " bottom halves spread or on one core: aggregate throughput and Open-MX overlap misses")
                .ranks(p -> 2 * pairs(p)).nodes(p -> 2).parameters(PARAMETERS).higherIsBetter("bandwidth_MBps")
                .metrics(METRICS).segment(p -> 2 * Math.max(StandardParameters.size(p), Kernel.PAGE_SIZE))
                // its transfers are two-sided sends and receives
                .requires(Capability.SEND_RECEIVE).build());
    }

    private static int pairs(Params params) {
        return params.intValue(PROCESSES);
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        long size = StandardParameters.size(params);
        int iterations = StandardParameters.iterations(params);
        int pairs = pairs(params);
        long half = Math.max(size, Kernel.PAGE_SIZE);
        RegistrationPolicy policy = job.policy();
        InterruptPlacement placement = policy.interruptPlacement();
        if (placement != null) {
            if (params.is(INTERRUPTS, SINGLE_CORE)) {
                placement.bindInterrupts(0);
            } else {
                placement.spreadInterrupts();
            }
        }
        int rounds = WARMUP + iterations;
        boolean[] ok = {true};
        // the timed phase: from the first pair's first timed round to the last pair's last round
        long[] span = {Long.MAX_VALUE, Long.MIN_VALUE};
        int[] finished = new int[1];
        for (int k = 0; k < pairs; k++) {
            Rank a = job.rank(2 * k);
            Rank b = job.rank(2 * k + 1);
            int core = k % a.node().cpu().coreCount();
            DataCheck.fill(a, 0, size, 0x3A17000L + 131L * k + size);
            new SimProcess(job.simulator(), b.node(), "rank" + b.id(), ctx -> {
                if (placement != null) {
                    placement.place(ctx, core);
                }
                for (int i = 0; i < rounds; i++) {
                    ok[0] &= PingPongWorkload.echo(ctx, b, a, half, size, i);
                }
            }).start();
            new SimProcess(job.simulator(), a.node(), "rank" + a.id(), ctx -> {
                if (placement != null) {
                    placement.place(ctx, core);
                }
                for (int i = 0; i < rounds; i++) {
                    long t0 = ctx.now();
                    ok[0] &= PingPongWorkload.ping(ctx, a, b, half, size, i);
                    if (i == WARMUP) {
                        span[0] = Math.min(span[0], t0);
                    }
                    if (i >= WARMUP) {
                        latencies.record((ctx.now() - t0) / 2);
                    }
                }
                span[1] = Math.max(span[1], ctx.now());
                finished[0]++;
            }).start();
        }
        int loadPct = params.intValue(IRQ_LOAD);
        if (loadPct > 0) {
            long period = params.longValue(IRQ_PERIOD) * Time.US;
            long slice = period * loadPct / 100;
            for (int n = 0; n < 2; n++) {
                Node node = job.rank(n).node();
                Core core0 = node.cpu().core(0);
                // a stream of bottom halves unrelated to these processes, until every pair is done
                new SimProcess(job.simulator(), node, "irq-load", ctx -> {
                    while (finished[0] < pairs) {
                        core0.submit(Core.TASKLET, null, slice, null, null, 0, 0, null);
                        ctx.sleep(period);
                    }
                }).start();
            }
        }
        long messages = 2L * pairs * rounds;
        return new Run() {
            /**
             * The pairs' aggregate throughput over the timed phase, counted as a ping-pong counts
             * it (a message's size per one-way trip), so one pair gives the ping-pong's figure: pairs
             * slowed down (an overloaded core) stretch the phase instead of being averaged away.
             */
            @Override
            public double bytesPerSecond() {
                if (iterations == 0 || span[1] <= span[0]) {
                    return 0;
                }
                return 2.0 * pairs * size * iterations / ((span[1] - span[0]) / (double) Time.S);
            }

            @Override
            public boolean verified() {
                boolean same = ok[0] && finished[0] == pairs;
                for (int k = 0; k < pairs && same; k++) {
                    Rank a = job.rank(2 * k);
                    Rank b = job.rank(2 * k + 1);
                    same = DataCheck.same(a, 0, b, half, size) && DataCheck.same(a, 0, a, half, size);
                }
                return same;
            }

            @Override
            public Map<String, Object> extraMetrics() {
                Map<String, Object> m = new LinkedHashMap<>();
                long misses = countOrZero(policy, Metric.OVERLAP_MISSES);
                long arrived = countOrZero(policy, Metric.PACKETS_RECEIVED) + misses;
                m.put("overlap_misses", misses);
                m.put("overlap_miss_fraction", arrived == 0 ? 0.0 : round((double) misses / arrived));
                m.put("overlap_misses_per_msg", round((double) misses / messages));
                double rtt = policy.mean(Metric.HANDSHAKE_RTT);
                m.put("handshake_rtt_us", Double.isNaN(rtt) ? null : round(rtt));
                return m;
            }
        };
    }

    private static long countOrZero(RegistrationPolicy policy, Metric metric) {
        long n = policy.count(metric);
        return n == RegistrationPolicy.NOT_COUNTED ? 0 : n;
    }

    private static double round(double x) {
        return Math.round(x * 1e6) / 1e6;
    }
}
