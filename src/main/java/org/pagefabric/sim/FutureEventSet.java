package org.pagefabric.sim;

/**
 * The pending-event priority queue. Entries are three primitive words: the due time, an
 * ordering key ({@code band << 58 | sequence}) and an opaque reference (the event's slab slot
 * and generation). Entries are ordered by (time, key); keys are unique, so the order is total.
 *
 * <p>Primitive entries and no per-entry objects are what let the kernel run without allocation
 * per event; implementations must not allocate except to grow.
 */
public interface FutureEventSet {
    /** Adds an entry. */
    void add(long time, long key, long ref);

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

    /** Reference of the least entry; undefined when empty. */
    long minRef();

    /** Removes the least entry. */
    void removeMin();

    /**
     * Removes the least entry and adds another in one operation: the common case of a handler
     * that schedules exactly one follow-up event, which costs one sift instead of two.
     */
    void replaceMin(long time, long key, long ref);

    /** Removes every entry whose reference {@code dead} accepts, then restores the order. */
    void removeIf(java.util.function.LongPredicate dead);

    /** Removes every entry. */
    void clear();
}
