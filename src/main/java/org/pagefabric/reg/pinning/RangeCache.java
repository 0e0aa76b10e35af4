package org.pagefabric.reg.pinning;

import java.util.function.ToLongFunction;
import org.pagefabric.sim.collect.LongSortedMap;

/**
 * The mechanism shared by the caches that keep ranges pinned or declared after use so that the
 * next operation on the same memory finds them: an index of ranges by address, a count of the
 * operations using each, and a recency list from which unused ranges are evicted, coldest first,
 * when the cache is over its bound. A range in use is never evicted, so the bound may be exceeded
 * while every range is in use.
 *
 * <p>Where the caches differ is fixed at construction by named rules: how a lookup matches
 * ({@link Match}), whether ranges may overlap or are merged ({@link Overlap}), which event makes a
 * range the most recent ({@link Recency}), and the {@link Bound}. What a range stands for, and
 * what undoing it costs, stays with the caller: every operation that lets a range go hands it to
 * a callback that returns the time that took, in picoseconds, and the cache sums those times.
 *
 * <p>Every range moves through three states: inserted (cached, found by lookups, in the recency
 * list, counted against the bound); withdrawn (never found again, but still counted while the
 * caller holds its pinning, for example until its last user releases it); discarded (no longer
 * counted). Eviction does both steps at once.
 *
 * <p>Nothing here allocates per operation: the index is a {@link LongSortedMap} from start address
 * to the oldest range starting there, ranges starting at the same address are chained, and the
 * recency list is linked through the ranges themselves.
 *
 * @param <E> the ranges held
 */
public final class RangeCache<E extends CachedRange> {
    /** How a lookup of {@code [start, end)} matches a cached range. */
    public enum Match {
        /**
         * A range covering the request, among those starting at the highest cached start address
         * at or below the request's start, oldest first. With merged ranges that is the only range
         * that can cover it; with overlapping ones a wider range starting further below is not
         * considered.
         */
        COVERING,
        /** The range with exactly the request's start and end (a region declared for that buffer). */
        EXACT
    }

    /** Whether cached ranges may overlap. */
    public enum Overlap {
        /**
         * Cached ranges never overlap: a miss merges the ranges its request overlaps into one
         * ({@link #mergedStart}, {@link #mergedEnd}, {@link #withdrawOverlapping}) before inserting
         * it, and inserting a range that overlaps a cached one is an error.
         */
        MERGED,
        /** Ranges may overlap and are never merged: each miss adds its own range. */
        ALLOWED
    }

    /** Which event makes a range the most recently used, the last one eviction picks. */
    public enum Recency {
        /** Every acquisition (insertion or hit): the order in which operations asked for the ranges. */
        LAST_ACQUIRE,
        /** The release that leaves it unused: the order in which the ranges fell idle. */
        LAST_RELEASE
    }

    /**
     * How much the cache keeps before it evicts unused ranges: it is over its bound when it holds
     * more than {@code maxEntries} ranges or more than {@code maxBytes} bytes.
     *
     * @param maxEntries most ranges held, or {@link #NONE}
     * @param maxBytes   most bytes held, or {@link #NONE}
     */
    public record Bound(long maxEntries, long maxBytes) {
        /** No limit on this measure. */
        public static final long NONE = Long.MAX_VALUE;

        /** Validates the limits. */
        public Bound {
            if (maxEntries < 0 || maxBytes < 0) {
                throw new IllegalArgumentException("a cache bound cannot be negative: " + maxEntries + " entries, "
                        + maxBytes + " bytes");
            }
        }

        /** At most {@code maxEntries} ranges, whatever their size. */
        public static Bound entries(long maxEntries) {
            return new Bound(maxEntries, NONE);
        }

        /** At most {@code maxBytes} bytes, in however many ranges. */
        public static Bound bytes(long maxBytes) {
            return new Bound(NONE, maxBytes);
        }

        /** Whether {@code entries} ranges of {@code bytes} bytes exceed it. */
        boolean exceededBy(long entries, long bytes) {
            return entries > maxEntries || bytes > maxBytes;
        }
    }

    private final Match match;
    private final Overlap overlap;
    private final Recency recency;
    private final Bound bound;
    /** Cached ranges by start address: the oldest range starting there, the others chained behind it. */
    private final LongSortedMap<CachedRange> index = new LongSortedMap<>();
    private CachedRange coldest;
    private CachedRange warmest;
    private int heldEntries;
    private long heldBytes;
    /** Bytes of the longest range ever inserted: no range starting further below an address reaches it. */
    private long longest;

    /** An empty cache following the given rules. */
    public RangeCache(Match match, Overlap overlap, Recency recency, Bound bound) {
        this.match = match;
        this.overlap = overlap;
        this.recency = recency;
        this.bound = bound;
    }

    // ------------------------------------------------------------------ lookups

    /** The cached range matching {@code [start, end)} by the cache's {@link Match}, or null; changes nothing. */
    @SuppressWarnings("unchecked")
    public E find(long start, long end) {
        if (match == Match.EXACT) {
            for (CachedRange r = index.get(start); r != null; r = r.nextSameStart) {
                if (r.end() == end) {
                    return (E) r;
                }
            }
            return null;
        }
        int floor = index.floorIndex(start);
        if (floor < 0) {
            return null;
        }
        for (CachedRange r = index.value(floor); r != null; r = r.nextSameStart) {
            if (r.covers(start, end)) {
                return (E) r;
            }
        }
        return null;
    }

    /** The cached range overlapping {@code [start, end)} that starts lowest (of several, the oldest), or null. */
    public E firstOverlapping(long start, long end) {
        int from = overlap == Overlap.MERGED
                ? Math.max(index.floorIndex(start), 0)
                // a range starting at or below start - longest ends at or below start
                : index.ceilingIndex(start - longest + 1);
        return overlappingFrom(from, start, end);
    }

    /**
     * The cached range after {@code previous} (by start address, then age) overlapping
     * {@code [start, end)}, or null: with {@link #firstOverlapping}, the walk over them.
     * {@code previous} must still be cached.
     */
    @SuppressWarnings("unchecked")
    public E nextOverlapping(E previous, long start, long end) {
        requireCached(previous);
        for (CachedRange r = previous.nextSameStart; r != null; r = r.nextSameStart) {
            if (r.overlaps(start, end)) {
                return (E) r;
            }
        }
        return overlappingFrom(index.ceilingIndex(previous.start() + 1), start, end);
    }

    @SuppressWarnings("unchecked")
    private E overlappingFrom(int position, long start, long end) {
        for (int i = position; i < index.size() && index.key(i) < end; i++) {
            for (CachedRange r = index.value(i); r != null; r = r.nextSameStart) {
                if (r.overlaps(start, end)) {
                    return (E) r;
                }
            }
        }
        return null;
    }

    // ------------------------------------------------------------------ uses

    /**
     * Inserts a new range with one user, the operation it was made for, as the most recent.
     *
     * @throws IllegalStateException if the range was ever inserted, or (merged ranges) it overlaps a cached one
     */
    public void insert(E range) {
        if (range.state != CachedRange.NEW) {
            throw new IllegalStateException(range + " was cached before");
        }
        if (overlap == Overlap.MERGED && firstOverlapping(range.start(), range.end()) != null) {
            throw new IllegalStateException(range + " overlaps " + firstOverlapping(range.start(), range.end())
                    + ": merge the cached ranges into it first");
        }
        CachedRange head = index.get(range.start());
        if (head == null) {
            index.put(range.start(), range);
        } else {
            CachedRange last = head;
            while (last.nextSameStart != null) {
                last = last.nextSameStart;
            }
            last.nextSameStart = range;
        }
        range.state = CachedRange.CACHED;
        range.users = 1;
        heldEntries++;
        heldBytes += range.length();
        longest = Math.max(longest, range.length());
        linkWarmest(range);
    }

    /** One more user of a cached range (a hit); with {@link Recency#LAST_ACQUIRE} it becomes the most recent. */
    public void take(E range) {
        requireCached(range);
        range.users++;
        if (recency == Recency.LAST_ACQUIRE) {
            unlink(range);
            linkWarmest(range);
        }
    }

    /**
     * One user fewer. A cached range left unused becomes the most recent with
     * {@link Recency#LAST_RELEASE}; a withdrawn one stays held until the caller discards it.
     *
     * @return whether the range is unused now
     * @throws IllegalStateException if nobody uses it
     */
    public boolean release(E range) {
        if (range.users <= 0) {
            throw new IllegalStateException("release of " + range + " without a user");
        }
        range.users--;
        if (range.users > 0) {
            return false;
        }
        if (recency == Recency.LAST_RELEASE && range.state == CachedRange.CACHED) {
            unlink(range);
            linkWarmest(range);
        }
        return true;
    }

    /** Takes a cached range out of the index and the recency list: never found again, still held. */
    public void withdraw(E range) {
        requireCached(range);
        CachedRange head = index.get(range.start());
        if (head == range) {
            if (range.nextSameStart == null) {
                index.remove(range.start());
            } else {
                index.put(range.start(), range.nextSameStart);
            }
        } else {
            CachedRange before = head;
            while (before.nextSameStart != range) {
                before = before.nextSameStart;
            }
            before.nextSameStart = range.nextSameStart;
        }
        range.nextSameStart = null;
        range.state = CachedRange.WITHDRAWN;
        unlink(range);
    }

    /**
     * Stops counting a withdrawn, unused range against the bound: its pinning is gone.
     *
     * @throws IllegalStateException if it is still cached or in use, or was discarded already
     */
    public void discard(E range) {
        if (range.state != CachedRange.WITHDRAWN || range.users > 0) {
            throw new IllegalStateException(range + (range.state == CachedRange.CACHED ? " is still cached"
                    : range.users > 0 ? " is in use" : " is not held"));
        }
        range.state = CachedRange.DISCARDED;
        heldEntries--;
        heldBytes -= range.length();
    }

    /**
     * Withdraws every cached range overlapping {@code [start, end)}, lowest first, handing each
     * to {@code withdrawn} (which discards it now or later).
     *
     * @return the sum of what {@code withdrawn} returned, picoseconds
     */
    public long withdrawOverlapping(long start, long end, ToLongFunction<? super E> withdrawn) {
        long cost = 0;
        E r;
        while ((r = firstOverlapping(start, end)) != null) {
            withdraw(r);
            cost += withdrawn.applyAsLong(r);
        }
        return cost;
    }

    /** Merged ranges: the first byte of {@code [start, end)} joined with every cached range it overlaps. */
    public long mergedStart(long start, long end) {
        requireMerged();
        E first = firstOverlapping(start, end);
        return first == null ? start : Math.min(start, first.start());
    }

    /** Merged ranges: one past the last byte of {@code [start, end)} joined with every cached range it overlaps. */
    public long mergedEnd(long start, long end) {
        requireMerged();
        // disjoint ranges: only those starting last below end can reach past it
        int last = index.floorIndex(end - 1);
        long to = end;
        for (CachedRange r = last < 0 ? null : index.value(last); r != null; r = r.nextSameStart) {
            if (r.overlaps(start, end)) {
                to = Math.max(to, r.end());
            }
        }
        return to;
    }

    // ------------------------------------------------------------------ eviction

    /** Whether holding {@code moreEntries} more ranges of {@code moreBytes} more bytes would exceed the bound. */
    public boolean exceeds(long moreEntries, long moreBytes) {
        return bound.exceededBy(heldEntries + moreEntries, heldBytes + moreBytes);
    }

    /**
     * Evicts unused ranges, coldest first, until {@code moreEntries} more ranges of
     * {@code moreBytes} more bytes fit within the bound or no unused range is left. Each victim is
     * withdrawn and discarded, then handed to {@code evicted}, which undoes its pinning.
     *
     * @return the sum of what {@code evicted} returned, picoseconds
     */
    public long evictOver(long moreEntries, long moreBytes, ToLongFunction<? super E> evicted) {
        return evict(moreEntries, moreBytes, false, evicted);
    }

    /** Evicts every unused range, coldest first, as {@link #evictOver} does: when nothing else would fit. */
    public long evictIdle(ToLongFunction<? super E> evicted) {
        return evict(0, 0, true, evicted);
    }

    @SuppressWarnings("unchecked")
    private long evict(long moreEntries, long moreBytes, boolean all, ToLongFunction<? super E> evicted) {
        long cost = 0;
        CachedRange r = coldest;
        while (r != null && (all || exceeds(moreEntries, moreBytes))) {
            CachedRange next = r.warmer;
            if (r.users == 0) {
                E victim = (E) r;
                withdraw(victim);
                discard(victim);
                cost += evicted.applyAsLong(victim);
                if (next != null && next.state != CachedRange.CACHED) {
                    next = coldest; // the callback let other ranges go: walk again from the cold end
                }
            }
            r = next;
        }
        return cost;
    }

    // ------------------------------------------------------------------ recency order

    /** The least recently used cached range, in use or not, or null if none is cached. */
    @SuppressWarnings("unchecked")
    public E coldest() {
        return (E) coldest;
    }

    /** The cached range used next after {@code range} in recency order, or null if it is the warmest. */
    @SuppressWarnings("unchecked")
    public E warmer(E range) {
        requireCached(range);
        return (E) range.warmer;
    }

    /** The unused cached range eviction would pick first, or null if every cached range is in use. */
    @SuppressWarnings("unchecked")
    public E coldestIdle() {
        CachedRange r = coldest;
        while (r != null && r.users > 0) {
            r = r.warmer;
        }
        return (E) r;
    }

    // ------------------------------------------------------------------ totals

    /** Ranges held: cached ones, and withdrawn ones not discarded yet. */
    public int heldEntries() {
        return heldEntries;
    }

    /** Bytes of the ranges held. */
    public long heldBytes() {
        return heldBytes;
    }

    /** The bound the cache evicts to. */
    public Bound bound() {
        return bound;
    }

    private void linkWarmest(CachedRange r) {
        r.colder = warmest;
        r.warmer = null;
        if (warmest == null) {
            coldest = r;
        } else {
            warmest.warmer = r;
        }
        warmest = r;
    }

    private void unlink(CachedRange r) {
        if (r.colder == null) {
            coldest = r.warmer;
        } else {
            r.colder.warmer = r.warmer;
        }
        if (r.warmer == null) {
            warmest = r.colder;
        } else {
            r.warmer.colder = r.colder;
        }
        r.colder = null;
        r.warmer = null;
    }

    private static void requireCached(CachedRange r) {
        if (r.state != CachedRange.CACHED) {
            throw new IllegalStateException(r + " is not cached");
        }
    }

    private void requireMerged() {
        if (overlap != Overlap.MERGED) {
            throw new IllegalStateException("a cache of overlapping ranges does not merge");
        }
    }
}
