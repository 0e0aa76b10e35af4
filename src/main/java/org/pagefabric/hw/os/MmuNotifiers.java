package org.pagefabric.hw.os;

import java.util.ArrayList;
import java.util.Arrays;

/**
 * The MMU interval notifier subscriptions of one address space (Linux's per-mm interval tree),
 * and the invalidate_start/invalidate_end pair the kernel brackets every mapping change with.
 *
 * <p>Sequence numbers come from one counter per address space and every invalidation takes a
 * fresh one, so a subscription's sequence changes exactly when an overlapping invalidation
 * starts: readRetry is true iff such an invalidation happened since readBegin. Subscriptions are
 * kept sorted by (start, creation order); callbacks run in that order.
 */
public final class MmuNotifiers {
    private final ArrayList<MmuIntervalNotifier> subs = new ArrayList<>();
    private long maxLength;
    private long serial;
    private long seq;
    private long invalidations;
    private long callbacks;
    private MmuIntervalNotifier[] batch = new MmuIntervalNotifier[8];
    private int batchCount;
    private boolean active;

    /**
     * Subscribes to changes of {@code [start, start+length)}.
     *
     * @throws IllegalArgumentException if the range is empty or wraps
     */
    public MmuIntervalNotifier subscribe(long start, long length, MmuInvalidationCallback callback) {
        if (length <= 0 || start < 0 || start + length < start) {
            throw new IllegalArgumentException("notifier range [" + start + ", +" + length + ") is empty or wraps");
        }
        MmuIntervalNotifier n = new MmuIntervalNotifier(this, start, start + length, serial++, seq, callback);
        int at = insertionPoint(start, n.serial());
        subs.add(at, n);
        maxLength = Math.max(maxLength, length);
        return n;
    }

    private int insertionPoint(long start, long serialNo) {
        int lo = 0;
        int hi = subs.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            MmuIntervalNotifier m = subs.get(mid);
            if (m.start() < start || (m.start() == start && m.serial() < serialNo)) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    void remove(MmuIntervalNotifier n) {
        int i = insertionPoint(n.start(), n.serial());
        if (i < subs.size() && subs.get(i) == n) {
            subs.remove(i);
        }
    }

    /** Live subscriptions. */
    public int size() {
        return subs.size();
    }

    /** Invalidations started so far (whether or not any subscription overlapped). */
    public long invalidations() {
        return invalidations;
    }

    /** Callbacks invoked so far. */
    public long callbacks() {
        return callbacks;
    }

    /**
     * Starts invalidating {@code [start, end)}: advances the sequence of every overlapping
     * subscription and calls its callback. Returns how many callbacks ran (the kernel charges
     * each). Must be followed by {@link #invalidateEnd}.
     */
    int invalidateStart(long start, long end, InvalidationReason reason) {
        if (active) {
            throw new IllegalStateException("nested invalidation of [" + Long.toHexString(start) + ", " + Long.toHexString(end) + ")");
        }
        active = true;
        invalidations++;
        seq++;
        batchCount = 0;
        // candidates start before end and no earlier than start - maxLength
        int hi = insertionPoint(end, -1);
        for (int i = hi - 1, lo = candidatesFrom(start, hi); i >= lo; i--) {
            MmuIntervalNotifier n = subs.get(i);
            if (n.end() > start) {
                addToBatch(n);
            }
        }
        // collected backwards; run in (start, creation) order
        for (int i = 0, j = batchCount - 1; i < j; i++, j--) {
            MmuIntervalNotifier t = batch[i];
            batch[i] = batch[j];
            batch[j] = t;
        }
        for (int i = 0; i < batchCount; i++) {
            batch[i].beginInvalidation(seq);
        }
        for (int i = 0; i < batchCount; i++) {
            MmuIntervalNotifier n = batch[i];
            n.callback().invalidate(n, Math.max(start, n.start()), Math.min(end, n.end()), reason, seq);
        }
        callbacks += batchCount;
        return batchCount;
    }

    /**
     * Asks every subscription overlapping {@code [start, end)} whether its mirror used the range
     * since it was last asked ({@link MmuInvalidationCallback#clearYoung}); true if any did. Every
     * one is asked, so each clears its own record, as mmu_notifier_clear_flush_young does.
     */
    boolean clearYoung(long start, long end) {
        boolean young = false;
        int hi = insertionPoint(end, -1);
        for (int i = hi - 1, lo = candidatesFrom(start, hi); i >= lo; i--) {
            MmuIntervalNotifier n = subs.get(i);
            if (n.end() > start) {
                young |= n.callback().clearYoung(n, Math.max(start, n.start()), Math.min(end, n.end()));
            }
        }
        return young;
    }

    /**
     * The lowest position below {@code hi} whose subscription may still reach past {@code start}:
     * subscriptions are in start order and none is longer than {@code maxLength}, so the scan down
     * from {@code hi} stops at the first that starts {@code maxLength} or more before {@code start}.
     */
    private int candidatesFrom(long start, int hi) {
        int lo = hi;
        while (lo > 0 && subs.get(lo - 1).start() + maxLength > start) {
            lo--;
        }
        return lo;
    }

    /** Ends the invalidation started last. */
    void invalidateEnd(long start, long end, InvalidationReason reason) {
        if (!active) {
            throw new IllegalStateException("invalidate_end without invalidate_start");
        }
        for (int i = 0; i < batchCount; i++) {
            MmuIntervalNotifier n = batch[i];
            n.endInvalidation();
            n.callback().invalidateEnd(n, Math.max(start, n.start()), Math.min(end, n.end()), reason);
            batch[i] = null;
        }
        batchCount = 0;
        active = false;
    }

    private void addToBatch(MmuIntervalNotifier n) {
        if (batchCount == batch.length) {
            batch = Arrays.copyOf(batch, batchCount * 2);
        }
        batch[batchCount++] = n;
    }
}
