package org.pagefabric.workload;

import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.reg.Metric;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.stat.LatencyHistogram;
import org.pagefabric.sim.stat.StatisticsRegistry;

/**
 * The puts of an application, as the Titanium runtime issues them over GASNet: blocking, one at
 * a time per rank, each timed from the call to its completion. Each put is classified as the
 * policy saw it (004 Table 3): "handshake" when the initiator had to hand-shake with the target
 * first (a Firehose move, a rendezvous pin request; counted as {@link Metric#HANDSHAKES}), "one-sided"
 * otherwise, with a latency histogram per kind. Every put's bytes are checked at its target
 * against the content-tag stream of its source area.
 */
final class AppPuts {
    private final LatencyHistogram all;
    private final LatencyHistogram handshake;
    private final LatencyHistogram oneSided;
    private final long[] nextWrId;
    private long checked;
    private boolean ok = true;

    /**
     * @param all where every put's latency goes (the workload's {@code workload.latency})
     */
    AppPuts(Job job, LatencyHistogram all) {
        this.all = all;
        StatisticsRegistry stats = job.simulator().statistics();
        this.handshake = stats.latency("app.put_latency.handshake", "latency of puts that needed a handshake");
        this.oneSided = stats.latency("app.put_latency.onesided", "latency of puts that went one-sided at once");
        this.nextWrId = new long[job.ranks().size()];
    }

    /**
     * Puts {@code length} bytes from {@code from}'s segment offset {@code src} to {@code to}'s
     * offset {@code dst}, waits for its completion and checks the bytes: the source area starting
     * at segment offset {@code areaStart} holds content-tag stream {@code tag}.
     */
    void put(ProcessContext ctx, Rank from, Rank to, long src, long dst, long length, long tag, long areaStart) {
        long before = from.count(Metric.HANDSHAKES);
        long t0 = ctx.now();
        from.write(ctx, to, src, dst, length, nextWrId[from.id()]++);
        CompletionEntry wc = from.awaitSend(ctx);
        long latency = ctx.now() - t0;
        all.record(latency);
        (from.count(Metric.HANDSHAKES) > before ? handshake : oneSided).record(latency);
        checked++;
        ok &= wc.status() == Outcome.SUCCESS
                && to.memory().verifyTag(to.segment() + dst, length, tag, src - areaStart);
    }

    /** Puts that needed a handshake. */
    LatencyHistogram handshake() {
        return handshake;
    }

    /** Puts that went one-sided. */
    LatencyHistogram oneSided() {
        return oneSided;
    }

    /** Puts issued and checked. */
    long puts() {
        return checked;
    }

    /** Whether every put succeeded and delivered its bytes. */
    boolean verified() {
        return ok;
    }
}
