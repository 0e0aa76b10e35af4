package org.pagefabric.reg.rendezvous;

import org.pagefabric.reg.pinning.PinnedRange;
import org.pagefabric.reg.pinning.RangePinner;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.pagefabric.sim.collect.LongSortedMap;

/**
 * The initiator's cache of its own pinned buffers (004 §4.2: the Rendezvous implementation
 * "caches local pinned pages to avoid unpin-repin costs"): a buffer pinned for one operation
 * stays pinned and registered after it, so the next operation from the same pages finds it.
 *
 * <p>Bounded: when the pinned bytes exceed the bound, ranges no operation uses any more are
 * unpinned, least recently used first. A range in use (its operation not yet completed) is
 * never unpinned, since the NIC may still read it; the bound may then be exceeded until those
 * operations complete.
 */
public final class LocalPinCache {
    /** One pinned range and the operations using it now. */
    private static final class Entry {
        final PinnedRange range;
        int users;

        Entry(PinnedRange range) {
            this.range = range;
        }
    }

    /** What acquiring a buffer gave: its local key and the time pinning and evicting took. */
    public record Acquired(int lkey, boolean hit, long costPs) {
    }

    private final RangePinner pinner;
    private final long boundBytes;
    /** Ranges by first byte; ranges that start on the same page share a list. */
    private final LongSortedMap<List<Entry>> byStart = new LongSortedMap<>();
    /** Every range, least recently used first. */
    private final LinkedHashSet<Entry> lru = new LinkedHashSet<>();
    /** The ranges operations use, by buffer, oldest first, until their completion releases them. */
    private final Map<Buffer, ArrayDeque<Entry>> inUse = new HashMap<>();
    private long pinnedBytes;
    private long hits;
    private long misses;
    private long evictions;

    private record Buffer(long va, long length) {
    }

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
    }

    /**
     * The buffer {@code [va, va + length)} pinned and registered for one operation: from the
     * cache if a range covers it, else pinned now (and least recently used ranges unpinned if the
     * cache went over its bound). The operation holds the range until {@link #release}.
     */
    public Acquired acquire(long va, long length) {
        Entry e = find(va, length);
        long cost = 0;
        boolean hit = e != null;
        if (hit) {
            hits++;
            lru.remove(e);
        } else {
            misses++;
            RangePinner.Pinned p = pinner.pin(va, length);
            cost += p.costPs();
            e = new Entry(p.range());
            List<Entry> same = byStart.get(e.range.start());
            if (same == null) {
                same = new ArrayList<>(1);
                byStart.put(e.range.start(), same);
            }
            same.add(e);
            pinnedBytes += e.range.bytes();
        }
        lru.addLast(e);
        e.users++;
        inUse.computeIfAbsent(new Buffer(va, length), k -> new ArrayDeque<>(1)).addLast(e);
        cost += evictOverBound();
        return new Acquired(e.range.region().lkey(), hit, cost);
    }

    /**
     * The operation on {@code [va, va + length)} that acquired it first and has not released it
     * completed: its range may now be evicted.
     *
     * @return the time unpinning ranges over the bound took, in picoseconds
     */
    public long release(long va, long length) {
        Buffer b = new Buffer(va, length);
        ArrayDeque<Entry> q = inUse.get(b);
        if (q == null) {
            throw new IllegalStateException("rank " + pinner.rank().id() + ": no operation holds [0x" + Long.toHexString(va)
                    + ", +" + length + ")");
        }
        Entry e = q.removeFirst();
        if (q.isEmpty()) {
            inUse.remove(b);
        }
        e.users--;
        return evictOverBound();
    }

    private Entry find(long va, long length) {
        int floor = byStart.floorIndex(va);
        if (floor < 0) {
            return null;
        }
        List<Entry> same = byStart.value(floor);
        for (int i = 0; i < same.size(); i++) {
            Entry e = same.get(i);
            if (e.range.covers(va, length)) {
                return e;
            }
        }
        return null;
    }

    private long evictOverBound() {
        long cost = 0;
        Iterator<Entry> it = lru.iterator();
        while (pinnedBytes > boundBytes && it.hasNext()) {
            Entry e = it.next();
            if (e.users > 0) {
                continue;
            }
            it.remove();
            List<Entry> same = byStart.get(e.range.start());
            same.remove(e);
            if (same.isEmpty()) {
                byStart.remove(e.range.start());
            }
            pinnedBytes -= e.range.bytes();
            evictions++;
            cost += pinner.unpin(e.range);
        }
        return cost;
    }

    /** Bytes of the ranges the cache holds pinned now, ranges in use included. */
    public long pinnedBytes() {
        return pinnedBytes;
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
