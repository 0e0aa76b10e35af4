package org.pagefabric.workload;

import java.util.Map;
import java.util.function.Supplier;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * What a workload's timed and checked transfers came to: how long they took, which completed
 * with an error (and the first error), and which completed but delivered wrong bytes. The
 * workloads that reuse, fork or move a registered buffer between transfers report through it,
 * so their rows say alike why they failed.
 */
public final class CheckedTransfers {
    private final long size;
    private final int iterations;
    private final String wrongBytesMeaning;
    private long timedPs;
    private final FailedOperations failed = new FailedOperations();
    private long corrupted;

    /**
     * Transfers of {@code size} bytes, {@code iterations} of them; {@code wrongBytesMeaning} says,
     * after "N of M transfers", what a transfer that delivered wrong bytes means in this workload.
     */
    public CheckedTransfers(long size, int iterations, String wrongBytesMeaning) {
        this.size = size;
        this.iterations = iterations;
        this.wrongBytesMeaning = wrongBytesMeaning;
    }

    /** One transfer took {@code ps}; it completed with {@code status}. */
    public void timed(long ps, Outcome status) {
        timedPs += ps;
        failed.completed(status);
    }

    /**
     * Writes {@code length} bytes from the start of {@code from}'s segment to the start of
     * {@code to}'s, timed into {@code latencies}, and checks that they arrived.
     */
    public void writeSegment(ProcessContext ctx, Rank from, Rank to, long length, long wrId,
                             LatencyHistogram latencies) {
        long t0 = ctx.now();
        from.write(ctx, to, 0, 0, length, wrId);
        CompletionEntry wc = from.awaitSend(ctx);
        long took = ctx.now() - t0;
        latencies.record(took);
        timed(took, wc.status());
        if (wc.status() == Outcome.SUCCESS && !from.memory().sameBytes(from.segment(), to.memory(),
                to.segment(), length)) {
            corrupted();
        }
    }

    /** One transfer completed but the destination does not hold what the source held. */
    public void corrupted() {
        corrupted++;
    }

    /** Transfers that delivered wrong bytes. */
    public long corruptedCount() {
        return corrupted;
    }

    /** Payload bytes per second of the timed transfers. */
    public double bytesPerSecond() {
        return Workload.Run.perSecond((double) size * iterations, timedPs);
    }

    /** Whether every transfer completed and delivered the right bytes. */
    public boolean verified() {
        return failed.count() == 0 && corrupted == 0;
    }

    /** Why the transfers did not verify, or {@code null}. */
    public String failure() {
        if (failed.count() > 0) {
            return failed.describe(iterations, "transfers");
        }
        return corrupted > 0 ? corrupted + " of " + iterations + " transfers " + wrongBytesMeaning : null;
    }

    /**
     * The workload's report: rate, verdict and reason from these transfers, and the workload's
     * own metrics, read from {@code extraMetrics} when the row is written.
     */
    public Workload.Run run(Supplier<Map<String, Object>> extraMetrics) {
        return new Workload.Run() {
            @Override
            public double bytesPerSecond() {
                return CheckedTransfers.this.bytesPerSecond();
            }

            @Override
            public boolean verified() {
                return CheckedTransfers.this.verified();
            }

            @Override
            public String failure() {
                return CheckedTransfers.this.failure();
            }

            @Override
            public Map<String, Object> extraMetrics() {
                return extraMetrics.get();
            }
        };
    }
}
