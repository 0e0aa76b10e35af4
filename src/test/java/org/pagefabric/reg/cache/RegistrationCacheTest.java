package org.pagefabric.reg.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.hw.param.NicParameters;

/** The cache's bookkeeping: hits, references, LRU order, limits, merging, costs and pinning. */
class RegistrationCacheTest {
    private static final long PAGE = CacheBed.PAGE;
    private static final CacheLimits ROOMY = new CacheLimits(1024, 1L << 30);

    @Test
    void aMissRegistersPageAlignedAndALaterLookupInsideItHits() {
        CacheBed bed = new CacheBed(ROOMY);
        long a = bed.map(4);
        RegistrationCache.Lookup miss = bed.cache.acquire(a + 100, 2 * PAGE);
        assertEquals(a, miss.entry().start());
        assertEquals(a + 3 * PAGE, miss.entry().end(), "rounded out to whole pages");
        bed.cache.release(miss.entry());
        RegistrationCache.Lookup hit = bed.cache.acquire(a + PAGE, PAGE);
        assertSame(miss.entry(), hit.entry());
        assertEquals(100, hit.costPs(), "a hit costs the lookup only");
        long registration = bed.profile.time(NicParameters.REGISTER_BASE)
                + 3 * bed.profile.time(NicParameters.REGISTER_PER_PAGE);
        assertTrue(miss.costPs() > registration, "a miss pays pinning on top of the NIC registration");
        CacheStatistics s = bed.cache.statistics();
        assertEquals(2, s.gets());
        assertEquals(1, s.hits());
        assertEquals(1, s.misses());
        assertEquals(1, s.registrations());
    }

    @Test
    void referencesKeepAnEntryOutOfTheLruUntilTheLastRelease() {
        CacheBed bed = new CacheBed(ROOMY);
        long a = bed.map(1);
        CacheEntry e = bed.cache.acquire(a, PAGE).entry();
        bed.cache.acquire(a, PAGE);
        assertEquals(2, e.references());
        bed.cache.release(e);
        assertEquals(List.of(), bed.cache.unused());
        bed.cache.release(e);
        assertEquals(List.of(e), bed.cache.unused());
        assertThrows(IllegalStateException.class, () -> bed.cache.release(e));
    }

    @Test
    void theLruOrdersUnusedEntriesByLastRelease() {
        CacheBed bed = new CacheBed(ROOMY);
        CacheEntry a = bed.touch(bed.map(1), PAGE);
        CacheEntry b = bed.touch(bed.map(1), PAGE);
        CacheEntry c = bed.touch(bed.map(1), PAGE);
        bed.touch(a.start(), PAGE);
        assertEquals(List.of(b, c, a), bed.cache.unused());
    }

    @Test
    void theEntryLimitEvictsTheLeastRecentlyUsedAndUnpinsIt() {
        CacheBed bed = new CacheBed(new CacheLimits(2, 1L << 30));
        CacheEntry a = bed.touch(bed.map(1), PAGE);
        CacheEntry b = bed.touch(bed.map(1), PAGE);
        bed.touch(a.start(), PAGE);
        CacheEntry c = bed.touch(bed.map(1), PAGE);
        assertEquals(List.of(a, c), bed.cache.unused(), "b was the coldest");
        assertFalse(b.valid());
        assertNull(bed.cache.find(b.start()));
        assertEquals(1, bed.cache.statistics().evictions());
        assertEquals(1, bed.cache.statistics().deregistrations());
        assertEquals(2 * PAGE, bed.cache.pinnedBytes());
        assertEquals(2, bed.process.pinnedPages(), "the evicted page is unpinned");
    }

    @Test
    void theByteLimitEvictsUntilTheNewRegionFits() {
        CacheBed bed = new CacheBed(new CacheLimits(1024, 3 * PAGE));
        CacheEntry a = bed.touch(bed.map(2), 2 * PAGE);
        CacheEntry b = bed.touch(bed.map(2), 2 * PAGE);
        assertFalse(a.valid(), "two 2-page regions do not fit in 3 pages");
        assertTrue(b.valid());
        assertEquals(2 * PAGE, bed.cache.pinnedBytes());
    }

    @Test
    void entriesInUseAreNeverEvictedAndTheLimitIsRestoredWhenTheyAreReleased() {
        CacheBed bed = new CacheBed(new CacheLimits(1, 1L << 30));
        CacheEntry a = bed.cache.acquire(bed.map(1), PAGE).entry();
        CacheEntry b = bed.cache.acquire(bed.map(1), PAGE).entry();
        assertTrue(a.valid() && b.valid(), "both in use: the cache goes over its limit rather than evict one");
        assertEquals(2, bed.cache.registeredEntries());
        bed.cache.release(a);
        assertEquals(1, bed.cache.registeredEntries(), "released and over the limit: evicted at once");
        assertFalse(a.valid());
        assertTrue(b.valid());
    }

    @Test
    void anOverlappingMissMergesIntoOneLargerRegion() {
        CacheBed bed = new CacheBed(ROOMY);
        long base = bed.map(4);
        CacheEntry low = bed.touch(base, 2 * PAGE);
        CacheEntry held = bed.cache.acquire(base + 3 * PAGE, PAGE).entry();
        CacheEntry merged = bed.cache.acquire(base + PAGE, 2 * PAGE + 1).entry();
        assertEquals(base, merged.start());
        assertEquals(base + 4 * PAGE, merged.end());
        assertEquals(2, bed.cache.statistics().merges());
        assertFalse(low.valid());
        assertFalse(held.valid());
        assertSame(merged, bed.cache.find(base + 3 * PAGE), "the old regions are out of the index");
        assertEquals(2, bed.cache.registeredEntries(), "the region in use stays registered until released");
        bed.cache.release(held);
        assertEquals(1, bed.cache.registeredEntries());
        assertEquals(4 * PAGE, bed.cache.pinnedBytes());
        assertEquals(4, bed.process.pinnedPages());
    }

    @Test
    void aRangeThatCannotBePinnedFailsAndPinsNothing() {
        CacheBed bed = new CacheBed(ROOMY);
        long a = bed.map(1);
        assertThrows(org.pagefabric.hw.os.OsException.class, () -> bed.cache.acquire(a, 2 * PAGE),
                "the second page is not mapped");
        assertEquals(0, bed.process.pinnedPages());
        assertEquals(0, bed.cache.registeredEntries());
    }
}
