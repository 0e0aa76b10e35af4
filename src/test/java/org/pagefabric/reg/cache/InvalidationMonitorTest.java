package org.pagefabric.reg.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pagefabric.hw.os.Advice;

/** What each monitor sees of memory going away, and what the cache does with it. */
class InvalidationMonitorTest {
    private static final long PAGE = CacheBed.PAGE;
    private static final CacheLimits ROOMY = new CacheLimits(1024, 1L << 30);

    @Test
    void withoutAMonitorAnUnmappedRegionStaysCachedAndPinned() {
        CacheBed bed = new CacheBed(b -> new NoMonitor(), ROOMY);
        long a = bed.map(2);
        CacheEntry e = bed.touch(a, 2 * PAGE);
        bed.hooks.munmap(a, 2 * PAGE);
        assertSame(e, bed.cache.acquire(a, 2 * PAGE).entry(), "the stale registration is handed out");
        assertEquals(0, bed.cache.statistics().invalidations());
        assertEquals(2, bed.process.pinnedPages(), "the old frames stay pinned");
    }

    @Test
    void hooksSeeUnmapsThroughTheHookedLibraryOnly() {
        CacheBed bed = new CacheBed(b -> new HookMonitor(b.hooks), ROOMY);
        long a = bed.map(1);
        long b = bed.map(1);
        CacheEntry ea = bed.touch(a, PAGE);
        CacheEntry eb = bed.touch(b, PAGE);
        bed.hooks.munmap(a, PAGE);
        assertFalse(ea.valid(), "an unmap through the hooked library is seen at once");
        assertNull(bed.cache.find(a));
        bed.kernel.munmap(bed.process, b, PAGE);
        assertTrue(eb.valid(), "a direct system call (custom or static allocator) bypasses the hooks");
        assertSame(eb, bed.cache.acquire(b, PAGE).entry(), "and the stale registration is handed out");
    }

    @Test
    void hooksSeeMadviseDontneedThroughTheLibrary() {
        CacheBed bed = new CacheBed(b -> new HookMonitor(b.hooks), ROOMY);
        long a = bed.map(2);
        CacheEntry e = bed.touch(a, 2 * PAGE);
        bed.hooks.madviseDontneed(a + PAGE, PAGE);
        assertFalse(e.valid());
    }

    @Test
    void mmuNotifiersSeeEveryUnmapAndTheCacheDeregistersAtItsNextOperation() {
        CacheBed bed = new CacheBed(b -> new MmuMonitor(b.process), ROOMY);
        long a = bed.map(2);
        CacheEntry e = bed.touch(a, 2 * PAGE);
        assertEquals(1, bed.process.notifiers().size());
        bed.kernel.munmap(bed.process, a, 2 * PAGE);
        assertFalse(e.valid(), "the kernel calls back whoever unmaps");
        assertNull(bed.cache.find(a));
        assertEquals(1, bed.cache.statistics().invalidations());
        assertEquals(2, bed.process.pinnedPages(), "deregistration waits for the next cache operation");
        long c = bed.map(1);
        bed.touch(c, PAGE);
        assertEquals(1, bed.process.pinnedPages());
        assertEquals(1, bed.process.notifiers().size(), "the dead region's subscription is gone");
    }

    @Test
    void mmuNotifiersSeeMadviseDontneedToo() {
        CacheBed bed = new CacheBed(b -> new MmuMonitor(b.process), ROOMY);
        long a = bed.map(2);
        CacheEntry e = bed.touch(a, 2 * PAGE);
        bed.kernel.madvise(bed.process, a, PAGE, Advice.DONTNEED);
        assertFalse(e.valid());
    }

    @Test
    void anInvalidatedRegionInUseIsNeverHandedOutAndIsDeregisteredByItsLastRelease() {
        CacheBed bed = new CacheBed(b -> new MmuMonitor(b.process), ROOMY);
        long a = bed.map(1);
        CacheEntry old = bed.cache.acquire(a, PAGE).entry();
        bed.kernel.munmap(bed.process, a, PAGE);
        long again = bed.map(1);
        assertEquals(a, again, "the address comes back");
        CacheEntry fresh = bed.cache.acquire(again, PAGE).entry();
        assertNotSame(old, fresh);
        assertEquals(2, bed.cache.registeredEntries(), "the old one is still in use");
        bed.cache.release(old);
        assertEquals(1, bed.cache.registeredEntries());
        assertEquals(1, bed.process.pinnedPages());
    }

    @Test
    void userfaultfdEventsWaitInTheQueueUntilTheNextLookup() {
        UffdMonitor[] monitor = new UffdMonitor[1];
        CacheBed bed = new CacheBed(b -> monitor[0] = new UffdMonitor(b.process), ROOMY);
        long a = bed.map(2);
        CacheEntry e = bed.touch(a, 2 * PAGE);
        bed.kernel.munmap(bed.process, a, 2 * PAGE);
        assertEquals(1, monitor[0].pending());
        assertTrue(e.valid(), "until the queue is read the entry looks valid: the window");
        assertSame(e, bed.cache.find(a));
        long again = bed.map(2);
        assertEquals(a, again);
        CacheEntry fresh = bed.cache.acquire(again, 2 * PAGE).entry();
        assertNotSame(e, fresh, "the lookup read the event first");
        assertFalse(e.valid());
        assertEquals(0, monitor[0].pending());
        assertEquals(2, bed.process.pinnedPages(), "the old frames were unpinned");
    }

    @Test
    void userfaultfdReportsMadviseAsRemoveAndKeepsWatchingMergedNeighbours() {
        UffdMonitor[] monitor = new UffdMonitor[1];
        CacheBed bed = new CacheBed(b -> monitor[0] = new UffdMonitor(b.process), ROOMY);
        long base = bed.map(3);
        CacheEntry low = bed.cache.acquire(base, PAGE).entry();
        CacheEntry merged = bed.cache.acquire(base, 3 * PAGE).entry();
        assertNotSame(low, merged);
        bed.cache.release(low);
        bed.cache.release(merged);
        // deregistering the merged-away region must not stop events for the region covering it
        bed.kernel.madvise(bed.process, base + 2 * PAGE, PAGE, Advice.DONTNEED);
        assertEquals(1, monitor[0].pending());
        bed.cache.acquire(base + 2 * PAGE, PAGE);
        assertFalse(merged.valid());
    }
}
