package org.pagefabric.sim;

import java.util.function.LongPredicate;

/**
 * The pending-event priority queue. An entry is two primitive words: the due time and a key
 * that the kernel makes unique and that orders entries due at the same time (it packs the
 * band, the scheduling sequence number and the event's slab slot). Entries are ordered by
 * (time, key) as signed longs; the kernel never makes either negative.
 *
 * <p>Primitive entries and no per-entry objects are what let the kernel run without allocation
 * per event; implementations must not allocate except to grow.
 */
public interface FutureEventSet {
    /** Adds an entry. */
    void add(long time, long key);

    /** Number of entries, including ones whose event was cancelled. */
    int size();

    /** Whether there is no entry. */
    default boolean isEmpty() {
        return size() == 0;
    }

    /** Due time of the least entry; undefined when empty. */
    long minTime();

    /** Key of the least entry; undefined when empty. */
    long minKey();

    /** Removes the least entry. */
    void removeMin();

    /**
     * Removes the least entry and adds another in one operation: the common case of a handler
     * that schedules exactly one follow-up event, which costs one sift instead of two.
     */
    void replaceMin(long time, long key);

    /** Removes every entry whose key {@code dead} accepts, then restores the order. */
    void removeIf(LongPredicate dead);

    /** Removes every entry. */
    void clear();

    /**
     * A performance hint: the keys of up to {@code n} entries among which the next least entry
     * will be found once the least one is removed, written to {@code out}; returns how many.
     * The kernel uses it to start loading those events' data early. Implementations without a
     * cheap answer return 0.
     */
    default int runnersUp(long[] out, int n) {
        return 0;
    }
}
