package org.pagefabric.reg.rendezvous;

import java.util.function.ToLongFunction;
import org.pagefabric.reg.pinning.BufferHolds;
import org.pagefabric.reg.pinning.CachedRange;
import org.pagefabric.reg.pinning.PinnedRange;
import org.pagefabric.reg.pinning.RangeCache;
import org.pagefabric.reg.pinning.RangePinner;

/**
 * The initiator's cache of its own pinned buffers (004 §4.2: the Rendezvous implementation
 * "caches local pinned pages to avoid unpin-repin costs"): a buffer pinned for one operation
 * stays pinned and registered after it, so the next operation from the same pages finds it.
 *
 * <p>Bounded: when the pinned bytes exceed the bound, ranges no operation uses any more are
 * unpinned, least recently acquired first. A range in use (its operation not yet completed) is
 * never unpinned, since the NIC may still read it; the bound may then be exceeded until those
 * operations complete. Ranges may overlap: a buffer is found in a range starting on the nearest
 * pinned start at or below it ({@link RangeCache} with overlapping ranges, covering lookup,
 * recency by last acquisition, a bound in bytes). A completion names only its buffer, so the
 * ranges operations hold are kept by buffer ({@link BufferHolds}).
 */
public final class LocalPinCache {
    /** One pinned range. */
    private static final class Entry extends CachedRange {
        final PinnedRange range;

        Entry(PinnedRange range) {
            super(range.start(), range.end());
            this.range = range;
        }
    }

    /** What acquiring a buffer gave: its local key and the time pinning and evicting took. */
    public record Acquired(int lkey, boolean hit, long costPs) {
    }

    private final RangePinner pinner;
    private final long boundBytes;
    private final RangeCache<Entry> ranges;
    /** The ranges operations use, by buffer, oldest first, until their completion releases them. */
    private final BufferHolds<Entry> inUse = new BufferHolds<>();
    private final ToLongFunction<Entry> unpin = this::unpin;
    private long hits;
    private long misses;
    private long evictions;

    /**
     * A cache of the pinner's rank's buffers, pinned through {@code pinner}, holding at most
     * {@code boundBytes} pinned unless ranges in use need more.
     */
    public LocalPinCache(RangePinner pinner, long boundBytes) {
        if (boundBytes < 0) {
            throw new IllegalArgumentException("local pin cache bound must not be negative, not " + boundBytes);
        }
        this.pinner = pinner;
        this.boundBytes = boundBytes;
        this.ranges = new RangeCache<>(RangeCache.Match.COVERING, RangeCache.Overlap.ALLOWED,
                RangeCache.Recency.LAST_ACQUIRE, RangeCache.Bound.bytes(boundBytes));
    }

    /**
     * The buffer {@code [va, va + length)} pinned and registered for one operation: from the
     * cache if a range covers it, else pinned now (and least recently used ranges unpinned if the
     * cache went over its bound). The operation holds the range until {@link #release}.
     */
    public Acquired acquire(long va, long length) {
        Entry e = ranges.find(va, va + length);
        long cost = 0;
        boolean hit = e != null;
        if (hit) {
            hits++;
            ranges.take(e);
        } else {
            misses++;
            RangePinner.Pinned p = pinner.pin(va, length);
            cost += p.costPs();
            e = new Entry(p.range());
            ranges.insert(e);
        }
        inUse.add(va, length, e);
        cost += ranges.evictOver(0, 0, unpin);
        return new Acquired(e.range.region().lkey(), hit, cost);
    }

    /**
     * The operation on {@code [va, va + length)} that acquired it first and has not released it
     * completed: its range may now be evicted.
     *
     * @return the time unpinning ranges over the bound took, in picoseconds
     */
    public long release(long va, long length) {
        Entry e = inUse.poll(va, length);
        if (e == null) {
            throw new IllegalStateException("rank " + pinner.rank().id() + ": no operation holds [0x" + Long.toHexString(va)
                    + ", +" + length + ")");
        }
        ranges.release(e);
        return ranges.evictOver(0, 0, unpin);
    }

    private long unpin(Entry e) {
        evictions++;
        return pinner.unpin(e.range);
    }

    /** Bytes of the ranges the cache holds pinned now, ranges in use included. */
    public long pinnedBytes() {
        return ranges.heldBytes();
    }

    /** The bound on pinned bytes of ranges not in use. */
    public long boundBytes() {
        return boundBytes;
    }

    /** Acquisitions a cached range served. */
    public long hits() {
        return hits;
    }

    /** Acquisitions that pinned. */
    public long misses() {
        return misses;
    }

    /** Ranges unpinned to stay within the bound. */
    public long evictions() {
        return evictions;
    }
}
