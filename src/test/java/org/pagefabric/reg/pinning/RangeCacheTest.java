package org.pagefabric.reg.pinning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Test;
import org.pagefabric.reg.pinning.RangeCache.Bound;
import org.pagefabric.reg.pinning.RangeCache.Match;
import org.pagefabric.reg.pinning.RangeCache.Overlap;
import org.pagefabric.reg.pinning.RangeCache.Recency;

/** The rules one at a time: lookups, recency, the bound, merging and the lifetime of a withdrawn range. */
class RangeCacheTest {
    private final List<Span> evicted = new ArrayList<>();
    /** Records each victim; undoing it "costs" its length. */
    private final ToLongFunction<Span> record = s -> {
        evicted.add(s);
        return s.length();
    };

    private static RangeCache<Span> cache(Match match, Overlap overlap, Recency recency, Bound bound) {
        return new RangeCache<>(match, overlap, recency, bound);
    }

    private static Span inserted(RangeCache<Span> c, int id, long start, long end) {
        Span s = new Span(id, start, end);
        c.insert(s);
        return s;
    }

    /** Inserts a range and releases it at once: cached and unused. */
    private static Span idle(RangeCache<Span> c, int id, long start, long end) {
        Span s = inserted(c, id, start, end);
        c.release(s);
        return s;
    }

    private static List<Span> recencyOrder(RangeCache<Span> c) {
        List<Span> out = new ArrayList<>();
        for (Span s = c.coldest(); s != null; s = c.warmer(s)) {
            out.add(s);
        }
        return out;
    }

    @Test
    void aCoveringLookupLooksOnlyAtTheNearestStartBelowOldestFirst() {
        RangeCache<Span> c = cache(Match.COVERING, Overlap.ALLOWED, Recency.LAST_ACQUIRE, Bound.bytes(1000));
        Span wide = idle(c, 1, 0, 100);
        Span shortAt40 = idle(c, 2, 40, 50);
        Span longAt40 = idle(c, 3, 40, 90);
        assertSame(wide, c.find(10, 30));
        assertSame(shortAt40, c.find(45, 50), "of two covering ranges at the same start, the older");
        assertSame(longAt40, c.find(45, 80));
        assertNull(c.find(45, 95), "the wider range starting lower is not considered");
        assertNull(c.find(-5, 10), "nothing starts at or below -5");
    }

    @Test
    void anExactLookupWantsTheSameStartAndEnd() {
        RangeCache<Span> c = cache(Match.EXACT, Overlap.ALLOWED, Recency.LAST_ACQUIRE, Bound.entries(10));
        Span a = idle(c, 1, 100, 200);
        Span b = idle(c, 2, 100, 150);
        assertSame(a, c.find(100, 200));
        assertSame(b, c.find(100, 150));
        assertNull(c.find(100, 120), "covered, but not the declared buffer");
        assertNull(c.find(110, 150));
    }

    @Test
    void recencyByAcquisitionAndByReleaseOrderTheSameHistoryDifferently() {
        for (Recency recency : Recency.values()) {
            boolean byAcquire = recency == Recency.LAST_ACQUIRE;
            RangeCache<Span> c = cache(Match.COVERING, Overlap.ALLOWED, recency, Bound.entries(10));
            Span a = inserted(c, 1, 0, 10);
            Span b = inserted(c, 2, 10, 20);
            c.release(b);
            c.release(a);
            assertEquals(byAcquire ? List.of(a, b) : List.of(b, a), recencyOrder(c), recency.name());
            c.take(b);
            c.take(a);
            c.release(a);
            c.release(b);
            assertEquals(byAcquire ? List.of(b, a) : List.of(a, b), recencyOrder(c), recency + ", used again");
            assertSame(byAcquire ? b : a, c.coldestIdle());
        }
    }

    @Test
    void evictionTakesUnusedRangesColdestFirstUntilTheBoundHolds() {
        RangeCache<Span> c = cache(Match.COVERING, Overlap.ALLOWED, Recency.LAST_ACQUIRE, Bound.bytes(20));
        Span a = idle(c, 1, 0, 10);
        Span inUse = inserted(c, 2, 10, 20);
        Span b = idle(c, 3, 20, 30);
        Span d = idle(c, 4, 30, 40);
        assertTrue(c.exceeds(0, 0));
        assertEquals(20, c.evictOver(0, 0, record), "the sum of the callbacks' costs");
        assertEquals(List.of(a, b), evicted, "the range in use is passed over, however cold");
        assertFalse(a.cached() || b.cached());
        assertEquals(List.of(inUse, d), recencyOrder(c));
        assertEquals(20, c.heldBytes());
        assertEquals(2, c.heldEntries());
    }

    @Test
    void rangesInUseAreNeverEvictedSoTheBoundCanBeExceeded() {
        RangeCache<Span> c = cache(Match.EXACT, Overlap.ALLOWED, Recency.LAST_ACQUIRE, Bound.entries(1));
        Span a = inserted(c, 1, 0, 10);
        Span b = inserted(c, 2, 10, 20);
        assertEquals(0, c.evictOver(0, 0, record));
        assertEquals(List.of(), evicted);
        assertEquals(2, c.heldEntries());
        assertNull(c.coldestIdle());
        assertTrue(c.release(b));
        c.evictOver(0, 0, record);
        assertEquals(List.of(b), evicted);
        assertSame(a, c.find(0, 10));
    }

    @Test
    void roomForARangeToComeCountsItsEntryAndBytes() {
        RangeCache<Span> c = cache(Match.COVERING, Overlap.MERGED, Recency.LAST_RELEASE, new Bound(3, 100));
        idle(c, 1, 0, 10);
        idle(c, 2, 10, 20);
        assertFalse(c.exceeds(1, 80));
        assertTrue(c.exceeds(1, 81), "bytes");
        assertTrue(c.exceeds(2, 0), "entries");
        c.evictOver(1, 85, record);
        assertEquals(1, evicted.size(), "one eviction makes room for 85 more bytes");
        assertThrows(IllegalArgumentException.class, () -> Bound.bytes(-1));
    }

    @Test
    void evictIdleEmptiesTheCacheOfUnusedRangesWhateverTheBound() {
        RangeCache<Span> c = cache(Match.COVERING, Overlap.ALLOWED, Recency.LAST_RELEASE, Bound.entries(100));
        Span a = idle(c, 1, 0, 10);
        Span held = inserted(c, 2, 10, 20);
        Span b = idle(c, 3, 20, 30);
        c.evictIdle(record);
        assertEquals(List.of(a, b), evicted);
        assertEquals(List.of(held), recencyOrder(c));
    }

    @Test
    void mergedRangesNeverOverlapAndAMissJoinsThoseItOverlaps() {
        RangeCache<Span> c = cache(Match.COVERING, Overlap.MERGED, Recency.LAST_RELEASE, Bound.entries(100));
        Span low = idle(c, 1, 0, 20);
        Span mid = inserted(c, 2, 30, 40);
        Span high = idle(c, 3, 50, 70);
        Span apart = idle(c, 4, 80, 90);
        assertThrows(IllegalStateException.class, () -> c.insert(new Span(5, 35, 45)));
        assertEquals(0, c.mergedStart(10, 60));
        assertEquals(70, c.mergedEnd(10, 60));
        assertEquals(25, c.mergedStart(25, 28), "overlapping nothing, the request itself");
        assertEquals(28, c.mergedEnd(25, 28));
        List<Span> order = new ArrayList<>();
        assertEquals(0, c.withdrawOverlapping(0, 70, s -> {
            order.add(s);
            return 0;
        }));
        assertEquals(List.of(low, mid, high), order, "lowest first");
        assertFalse(low.cached() || mid.cached() || high.cached());
        assertEquals(4, c.heldEntries(), "withdrawn ranges still count until discarded");
        Span merged = inserted(c, 6, 0, 70);
        assertSame(merged, c.find(35, 36));
        assertSame(apart, c.find(80, 81));
        assertThrows(IllegalStateException.class,
                () -> cache(Match.COVERING, Overlap.ALLOWED, Recency.LAST_RELEASE, Bound.entries(1)).mergedStart(0, 1));
    }

    @Test
    void aWithdrawnRangeInUseStaysHeldUntilItsLastReleaseAndIsNeverFound() {
        RangeCache<Span> c = cache(Match.COVERING, Overlap.MERGED, Recency.LAST_RELEASE, Bound.entries(100));
        Span s = inserted(c, 1, 0, 10);
        c.take(s);
        c.withdraw(s);
        assertNull(c.find(0, 10));
        assertThrows(IllegalStateException.class, () -> c.discard(s), "in use");
        assertFalse(c.release(s));
        assertTrue(c.release(s), "the last release");
        assertEquals(List.of(), recencyOrder(c), "a withdrawn range does not come back to the recency list");
        assertEquals(1, c.heldEntries());
        c.discard(s);
        assertEquals(0, c.heldEntries());
        assertEquals(0, c.heldBytes());
        assertThrows(IllegalStateException.class, () -> c.discard(s), "discarded twice");
        assertThrows(IllegalStateException.class, () -> c.release(s), "released without a user");
        assertThrows(IllegalStateException.class, () -> c.take(s), "taken while not cached");
        assertThrows(IllegalStateException.class, () -> c.insert(s), "inserted twice");
    }

    @Test
    void theOverlapWalkVisitsEveryOverlappingRangeByStartThenAge() {
        RangeCache<Span> c = cache(Match.COVERING, Overlap.ALLOWED, Recency.LAST_ACQUIRE, Bound.entries(100));
        Span wide = idle(c, 1, 0, 100);
        Span a = idle(c, 2, 40, 50);
        Span b = idle(c, 3, 40, 45);
        idle(c, 4, 60, 70);
        Span e = idle(c, 5, 10, 42);
        List<Span> walk = new ArrayList<>();
        for (Span s = c.firstOverlapping(41, 60); s != null; s = c.nextOverlapping(s, 41, 60)) {
            walk.add(s);
        }
        assertEquals(List.of(wide, e, a, b), walk);
    }

    @Test
    void anEvictionCallbackThatLetsOtherRangesGoDoesNotDerailTheWalk() {
        RangeCache<Span> c = cache(Match.COVERING, Overlap.ALLOWED, Recency.LAST_ACQUIRE, Bound.entries(1));
        Span a = idle(c, 1, 0, 10);
        Span b = idle(c, 2, 10, 20);
        Span d = idle(c, 3, 20, 30);
        c.evictOver(0, 0, s -> {
            evicted.add(s);
            if (s == a) {
                c.withdraw(b);
                c.discard(b);
            }
            return 0;
        });
        assertEquals(List.of(a), evicted, "b went with a; d alone fits the bound");
        assertEquals(List.of(d), recencyOrder(c));
    }

    @Test
    void hitsReleasesLookupsAndEvictionsAllocateNothing() {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        RangeCache<Span> c = cache(Match.COVERING, Overlap.ALLOWED, Recency.LAST_ACQUIRE, Bound.entries(64));
        Span[] spans = new Span[128];
        for (int i = 0; i < spans.length; i++) {
            spans[i] = idle(c, i, i * 10L, i * 10L + 10);
        }
        ToLongFunction<Span> ignore = s -> 0;
        long sink = 0;
        for (int round = 0; round < 2; round++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 100_000; i++) {
                Span s = c.find((i % 64) * 10L + 640, (i % 64) * 10L + 645);
                c.take(s);
                c.release(s);
                sink += c.evictOver(0, 0, ignore) + c.coldestIdle().start();
            }
            long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            if (round == 1) {
                // one allocation per iteration would be 1.6 MB at least; a few hundred bytes are the JIT's
                assertTrue(allocated < 64 * 1024, allocated + " B allocated by 100 000 iterations");
            }
        }
        assertEquals(64, c.heldEntries(), "the first call evicted the 64 coldest, sink " + sink);
    }
}
