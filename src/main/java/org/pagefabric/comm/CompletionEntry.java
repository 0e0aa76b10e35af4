package org.pagefabric.comm;

import org.pagefabric.hw.nic.WorkCompletion;

/**
 * The completion-queue entry a {@link Rank} reaped last from one of its queues, as the application
 * reads it: which operation ended, how, and how many bytes it moved. A rank keeps one for its send
 * queue and one for its receive queue and refills it at each await, so nothing is allocated per
 * operation: read it before the rank awaits the same queue again.
 */
public final class CompletionEntry {
    private WorkCompletion wc;

    CompletionEntry() {
    }

    /** Makes this view show {@code c}; returns it. */
    CompletionEntry show(WorkCompletion c) {
        this.wc = c;
        return this;
    }

    /** The operation's identifier, as the application gave it when it posted the operation. */
    public long wrId() {
        return wc.wrId();
    }

    /** How the operation ended. */
    public Outcome status() {
        return Outcome.of(wc.status());
    }

    /** Whether the operation succeeded. */
    public boolean ok() {
        return wc.status() == org.pagefabric.hw.net.CompletionStatus.SUCCESS;
    }

    /** Bytes the operation moved (a receive: bytes that arrived). */
    public long bytes() {
        return wc.bytes();
    }

    /** Simulated time the operation completed, picoseconds. */
    public long timePs() {
        return wc.timePs();
    }
}
