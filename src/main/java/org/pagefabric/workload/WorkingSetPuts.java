package org.pagefabric.workload;

import java.util.Map;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.Metric;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.RandomStream;

/**
 * What the Firehose microbenchmarks (004 §4.4) share: their parameters (the put size and the
 * number of timed puts, as every workload declares them, then a remote working set, a local
 * source area and a warm-up sweep), the random choice of targets and sources, and the check
 * that every put delivered its bytes.
 *
 * <p>Rank 0 puts into rank 1. The source area of rank 0 holds a content-tag stream, so a put
 * from source offset {@code s} must leave bytes {@code [s, s + size)} of that stream at its
 * target; each put is checked when its completion is reaped.
 */
final class WorkingSetPuts {
    /** Column name of the remote working set. */
    static final String WORKING_SET = "working_set_MiB";
    /** Column name of the local area puts are sourced from. */
    static final String SOURCE_AREA = "source_area_MiB";
    /** Column name of the warm-up switch. */
    static final String WARM_UP = "warm_up";
    /** The policy's metrics that restart with the timed puts. */
    private static final java.util.List<Metric> TIMED = java.util.List.of(Metric.HITS, Metric.MISSES, Metric.UNPIN_MOVES,
            Metric.UNPIN_TIME);
    private static final long MIB = 1L << 20;
    /** Content tag of the source area. */
    private static final long TAG = 0xF1E4_05E0_0000_0000L;

    // 16 GiB bound: the working set is a segment mapped in the simulated address space.
    static final WorkloadParameter WORKING_SET_PARAM = WorkloadParameter.integer(WORKING_SET, 100, "MiB",
            "remote memory the puts' targets are drawn from, uniformly at random", 1, 1L << 14);
    static final WorkloadParameter SOURCE_AREA_PARAM = WorkloadParameter.integer(SOURCE_AREA, 50, "MiB",
            "local memory the puts' sources are drawn from (004 §4.4: an area of MAXVICTIM, 50 MB)", 1, 1L << 14);
    static final WorkloadParameter WARM_UP_PARAM = WorkloadParameter.flag(WARM_UP, true,
            "before timing, put from and to every page of the source area and the working set in address order,"
                    + " so registration is in its steady state (004 §4.2: 'run long enough ... to reach a steady state')");

    final Rank source;
    final Rank target;
    final long size;
    final long workingSet;
    final long sourceArea;
    final int puts;
    final boolean warmUp;
    private final RandomStream random;
    private boolean ok = true;
    private long checked;

    WorkingSetPuts(Job job, Params params, String streamName) {
        this.source = job.rank(0);
        this.target = job.rank(1);
        this.size = StandardParameters.size(params);
        this.workingSet = params.longValue(WORKING_SET) * MIB;
        this.sourceArea = params.longValue(SOURCE_AREA) * MIB;
        this.puts = StandardParameters.iterations(params);
        this.warmUp = params.flag(WARM_UP);
        if (size > workingSet || size > sourceArea) {
            throw new IllegalArgumentException("size_B " + size + " does not fit in the working set (" + workingSet
                    + " B) and the source area (" + sourceArea + " B)");
        }
        this.random = job.simulator().randomStream(streamName);
        DataCheck.fill(source, 0, sourceArea, TAG);
    }

    /** Segment bytes both ranks need: the larger of the working set and the source area. */
    static long segmentBytes(Params params) {
        return Math.max(params.longValue(WORKING_SET), params.longValue(SOURCE_AREA)) * MIB;
    }

    /** A target offset drawn uniformly from those where a put of {@code size} fits, on multiples of {@code align}. */
    long randomTarget(long align) {
        return random.nextLong((workingSet - size) / align + 1) * align;
    }

    /** A source offset drawn uniformly from the source area, on multiples of {@code align}. */
    long randomSource(long align) {
        return random.nextLong((sourceArea - size) / align + 1) * align;
    }

    /** Warm-up puts step through the working set and the source area by this much: every page of both is touched. */
    long warmUpStep() {
        return Math.max(size, Kernel.PAGE_SIZE);
    }

    private long warmUpSlots(long area) {
        return (area - size) / warmUpStep() + 1;
    }

    /**
     * Marks the start of the timed puts: the policy's hits and misses, the moves that unpinned
     * and the unpin times restart, so that {@code hit_rate_pct} and {@code unpin_pct} describe the
     * timed puts only, not the warm-up's first touches. Moves go on counting the warm-up's.
     */
    void startTimedPhase() {
        for (Metric m : TIMED) {
            source.policy().reset(m);
        }
    }

    /** Warm-up puts: enough to step once through the larger of the working set and the source area. */
    long warmUpPuts() {
        return warmUp ? Math.max(warmUpSlots(workingSet), warmUpSlots(sourceArea)) : 0;
    }

    /** Target of warm-up put {@code i}: the working set in address order, wrapping around. */
    long warmUpTarget(long i) {
        return i % warmUpSlots(workingSet) * warmUpStep();
    }

    /** Source of warm-up put {@code i}: the source area in address order, wrapping around. */
    long warmUpSource(long i) {
        return i % warmUpSlots(sourceArea) * warmUpStep();
    }

    /** The metric columns the Firehose microbenchmarks add to the common ones. */
    static final java.util.List<String> EXTRA_METRICS = java.util.List.of("unpin_pct", "unpin_us");

    /**
     * Those metrics: {@code unpin_pct}, the share of timed puts whose firehose move had to unpin a
     * bucket at the target, and {@code unpin_us}, the mean time of one bucket's unpin; blank
     * under a policy that reports neither.
     */
    Map<String, Object> extraMetrics() {
        RegistrationPolicy policy = source.policy();
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        long unpinMoves = policy.count(Metric.UNPIN_MOVES);
        m.put("unpin_pct", unpinMoves == RegistrationPolicy.NOT_COUNTED || puts <= 0 ? null
                : Math.round(100_000.0 * unpinMoves / puts) / 1000.0);
        double unpinUs = policy.mean(Metric.UNPIN_TIME);
        m.put("unpin_us", Double.isNaN(unpinUs) ? null : Math.round(unpinUs * 1000.0) / 1000.0);
        return m;
    }

    /** Checks a reaped put from {@code from} to {@code to}: it succeeded and its bytes arrived. */
    void check(CompletionEntry wc, long from, long to) {
        checked++;
        ok &= wc.status() == Outcome.SUCCESS
                && target.memory().verifyTag(target.segment() + to, size, TAG, from);
    }

    /** Whether every put was checked and delivered its bytes. */
    boolean verified(long expected) {
        return ok && checked == expected;
    }
}
