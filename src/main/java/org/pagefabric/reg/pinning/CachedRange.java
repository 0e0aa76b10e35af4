package org.pagefabric.reg.pinning;

/**
 * A range of one address space that a {@link RangeCache} can hold: its bytes
 * {@code [start, end)}, the operations using it now, and the cache's links to it. A subclass says
 * what the range stands for (a NIC registration, a pinned buffer, a declared region) and owns
 * what pinning it took; the cache only finds, counts and orders it.
 *
 * <p>A range belongs to at most one cache in its life: inserted once, withdrawn once (it is then
 * never found again), discarded once (it then no longer counts against the cache's bound).
 */
public abstract class CachedRange {
    private final long start;
    private final long end;
    /** Not inserted in a cache yet. */
    static final byte NEW = 0;
    /** Inserted and not withdrawn: lookups may find it, it sits in the recency list and counts against the bound. */
    static final byte CACHED = 1;
    /** Withdrawn: never found again, still counted against the bound. */
    static final byte WITHDRAWN = 2;
    /** Discarded: no longer counted; the range's life in the cache is over. */
    static final byte DISCARDED = 3;

    /** Operations using the range now; the cache never evicts a range in use. */
    int users;
    /** Where the range is in its life in a cache: {@link #NEW}, {@link #CACHED}, ... */
    byte state = NEW;
    /** Neighbours in the cache's recency list: toward the cold end and toward the warm end. */
    CachedRange colder;
    CachedRange warmer;
    /** The next cached range starting at the same address, inserted later. */
    CachedRange nextSameStart;

    /**
     * The range {@code [start, end)}.
     *
     * @throws IllegalArgumentException if {@code end < start}
     */
    protected CachedRange(long start, long end) {
        if (end < start) {
            throw new IllegalArgumentException("range [0x" + Long.toHexString(start) + ", 0x" + Long.toHexString(end)
                    + ") ends before it starts");
        }
        this.start = start;
        this.end = end;
    }

    /** First byte. */
    public final long start() {
        return start;
    }

    /** One past the last byte. */
    public final long end() {
        return end;
    }

    /** Bytes covered. */
    public final long length() {
        return end - start;
    }

    /** Operations using the range now, as the cache counted them (0 for a range never cached). */
    public final int users() {
        return users;
    }

    /** Whether a cache holds the range where lookups find it (inserted and not withdrawn). */
    public final boolean cached() {
        return state == CACHED;
    }

    /** Whether the range covers {@code [from, to)}. */
    public final boolean covers(long from, long to) {
        return start <= from && to <= end;
    }

    /** Whether the range shares a byte with {@code [from, to)} (or, for an empty one, holds it inside). */
    public final boolean overlaps(long from, long to) {
        return start < to && from < end;
    }
}
