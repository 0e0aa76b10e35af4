package org.pagefabric.workload.synthetic;

import java.util.LinkedHashMap;
import java.util.Map;
import org.pagefabric.comm.Job;
import org.pagefabric.sim.Time;
import org.pagefabric.workload.FailedOperations;

/** What the ranks of one run add up: operations that failed or delivered wrong bytes, bytes moved, the span of time, peak pinned memory and the registration path's time. */
final class Tally {
    private static final double MIB = 1 << 20;
    private final Job job;
    private final long[] policyAtStart;
    long operations;
    final FailedOperations failed = new FailedOperations();
    long corrupted;
    long bytes;
    long reallocations;
    long firstStart = Long.MAX_VALUE;
    long lastEnd;
    private long peakPinned;

    Tally(Job job) {
        this.job = job;
        this.policyAtStart = new long[job.ranks().size()];
        for (int r = 0; r < policyAtStart.length; r++) {
            policyAtStart[r] = job.rank(r).policyTimePs();
        }
    }

    /** Samples the job's pinned memory; called after every operation, so the peak between frees is seen. */
    void samplePinned() {
        peakPinned = Math.max(peakPinned, job.pinnedBytes());
    }

    /** Why the run did not verify, for the row's reason, or {@code null} if it did. */
    String failure(long expected) {
        if (failed.count() > 0) {
            return failed.describe(operations, "operations");
        }
        if (corrupted > 0) {
            return corrupted + " of " + operations + " operations delivered other bytes than the buffer held";
        }
        return operations != expected ? operations + " of " + expected + " operations ran" : null;
    }

    boolean verified(long expected) {
        return failed.count() == 0 && corrupted == 0 && operations == expected;
    }

    double bytesPerSecond() {
        return lastEnd <= firstStart ? 0 : bytes / ((lastEnd - firstStart) / (double) Time.S);
    }

    /** The workload's own columns. */
    Map<String, Object> metrics() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put(SyntheticWorkload.CORRUPTED, corrupted);
        m.put(SyntheticWorkload.FAILED, failed.count());
        m.put(SyntheticWorkload.REALLOCATIONS, reallocations);
        m.put(SyntheticWorkload.PINNED_PEAK, Math.round(peakPinned / MIB * 1000.0) / 1000.0);
        long policy = 0;
        for (int r = 0; r < policyAtStart.length; r++) {
            policy += job.rank(r).policyTimePs() - policyAtStart[r];
        }
        double span = (double) (lastEnd - firstStart) * policyAtStart.length;
        m.put(SyntheticWorkload.POLICY_SHARE, span <= 0 ? null : Math.round(100_000.0 * policy / span) / 1000.0);
        return m;
    }
}
