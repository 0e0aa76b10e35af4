package org.pagefabric.hw.os;

/**
 * One subscription to changes of an address range of one address space, modelled on Linux's
 * {@code mmu_interval_notifier}: a driver mirroring translations (ODP's umem, a pin cache) reads
 * a sequence with {@link #readBegin()} before faulting pages in and, holding its own lock, checks
 * {@link #readRetry(long)} before installing the translations; true means an invalidation of
 * this range happened in between and the work must be redone.
 */
public final class MmuIntervalNotifier {
    private final MmuNotifiers owner;
    private final long start;
    private final long end;
    private final long serial;
    private final MmuInvalidationCallback callback;
    private long seq;
    private boolean invalidating;
    private boolean removed;

    MmuIntervalNotifier(MmuNotifiers owner, long start, long end, long serial, long seq, MmuInvalidationCallback callback) {
        this.owner = owner;
        this.start = start;
        this.end = end;
        this.serial = serial;
        this.seq = seq;
        this.callback = callback;
    }

    /** First byte watched. */
    public long start() {
        return start;
    }

    /** One past the last byte watched. */
    public long end() {
        return end;
    }

    long serial() {
        return serial;
    }

    MmuInvalidationCallback callback() {
        return callback;
    }

    /**
     * The current sequence, to pass to {@link #readRetry(long)} later. Linux sleeps here while an
     * invalidation of the range is in progress; in this single-threaded model that can only mean
     * the caller is inside its own callback, which would deadlock on Linux, so it is refused.
     */
    public long readBegin() {
        if (invalidating) {
            throw new IllegalStateException("read_begin inside an invalidation of [" + Long.toHexString(start) + ", "
                    + Long.toHexString(end) + "): this deadlocks on Linux");
        }
        return seq;
    }

    /** Whether an invalidation overlapping this range happened since {@code readBegin} returned {@code seq}. */
    public boolean readRetry(long seq) {
        return this.seq != seq;
    }

    /** The current sequence (for diagnostics; use readBegin/readRetry for the protocol). */
    public long sequence() {
        return seq;
    }

    /** Whether the subscription was removed. */
    public boolean removed() {
        return removed;
    }

    /** Ends the subscription (mmu_interval_notifier_remove). */
    public void remove() {
        if (!removed) {
            owner.remove(this);
            removed = true;
        }
    }

    void beginInvalidation(long newSeq) {
        seq = newSeq;
        invalidating = true;
    }

    void endInvalidation() {
        invalidating = false;
    }

    boolean invalidating() {
        return invalidating;
    }
}
