package org.pagefabric.reg.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import java.util.Map;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.reg.PolicyRefusal;

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
    void serialisedHooksApplyAnUnmapThatArrivesWhileAnotherThreadRegisters() {
        CacheBed bed = new CacheBed(b -> new HookMonitor(b.hooks, false), ROOMY);
        long a = bed.map(1);
        long b = bed.map(1);
        CacheEntry ea = bed.touch(a, PAGE);
        long registration = bed.cache.acquire(b, PAGE).costPs();
        bed.now = registration / 2;
        bed.hooks.munmap(a, PAGE);
        assertFalse(ea.valid());
        assertEquals(1, bed.cache.statistics().raceWindows());
        assertEquals(0, bed.cache.statistics().lostInvalidations());
    }

    @Test
    void unsynchronisedHooksLoseAnUnmapThatArrivesWhileAnotherThreadRegistersAndOnlyThen() {
        CacheBed bed = new CacheBed(b -> new HookMonitor(b.hooks, true), ROOMY);
        long a = bed.map(1);
        long b = bed.map(1);
        long c = bed.map(1);
        CacheEntry ea = bed.touch(a, PAGE);
        CacheEntry eb = bed.touch(b, PAGE);
        long registration = bed.cache.acquire(c, PAGE).costPs();
        bed.now = registration / 2;
        bed.hooks.munmap(a, PAGE);
        assertTrue(ea.valid(), "the registering thread wrote back the index without the removal");
        assertSame(ea, bed.cache.acquire(a, PAGE).entry(), "and the stale registration is handed out");
        assertEquals(1, bed.cache.statistics().lostInvalidations());
        bed.now = registration;
        bed.hooks.munmap(b, PAGE);
        assertFalse(eb.valid(), "once the registration's time has passed, nothing races the hook");
        assertEquals(1, bed.cache.statistics().raceWindows());
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

    @Test
    void kdreg2EventsWaitBehindTheSharedCounterUntilTheNextLookup() {
        Kdreg2Monitor[] monitor = new Kdreg2Monitor[1];
        CacheBed bed = new CacheBed(b -> monitor[0] = new Kdreg2Monitor(b.process), ROOMY);
        long a = bed.map(2);
        CacheEntry e = bed.touch(a, 2 * PAGE);
        // a direct system call, as a custom or statically linked allocator makes: hooks miss it
        bed.kernel.munmap(bed.process, a, 2 * PAGE);
        assertEquals(1, monitor[0].pending());
        assertTrue(e.valid(), "the module cannot call into user space: the cache learns at its next look");
        long again = bed.map(2);
        assertEquals(a, again);
        CacheEntry fresh = bed.cache.acquire(again, 2 * PAGE).entry();
        assertNotSame(e, fresh, "the lookup saw the counter and read the event first");
        assertFalse(e.valid());
        assertEquals(0, monitor[0].pending());
        assertEquals(1, monitor[0].totalEvents());
        assertEquals(2, bed.process.pinnedPages(), "the old frames were unpinned");
        assertEquals(1, bed.process.notifiers().size(), "the dead region's subscription is gone");
    }

    @Test
    void kdreg2SeesAProtectionChangeThatUserfaultfdDoesNotReport() {
        Kdreg2Monitor[] kdreg2 = new Kdreg2Monitor[1];
        UffdMonitor[] uffd = new UffdMonitor[1];
        CacheBed k = new CacheBed(b -> kdreg2[0] = new Kdreg2Monitor(b.process), ROOMY);
        CacheBed u = new CacheBed(b -> uffd[0] = new UffdMonitor(b.process), ROOMY);
        long ka = k.map(2);
        long ua = u.map(2);
        CacheEntry ke = k.touch(ka, 2 * PAGE);
        CacheEntry ue = u.touch(ua, 2 * PAGE);
        k.kernel.mprotect(k.process, ka, PAGE, Prot.READ);
        u.kernel.mprotect(u.process, ua, PAGE, Prot.READ);
        assertEquals(1, kdreg2[0].pending(), "kdreg2's notifier acts on every change of the mappings");
        assertEquals(0, uffd[0].pending(), "userfaultfd raises events for unmap and remove only");
        k.touch(ka + PAGE, PAGE);
        u.touch(ua + PAGE, PAGE);
        assertFalse(ke.valid());
        assertTrue(ue.valid());
    }

    @Test
    void kdreg2ReplacesTheSystemCallOfALookupByALoad() {
        Profile p = ProfileRegistry.load("default");
        long lookup = p.time(RegistrationCacheParameters.LOOKUP);
        long poll = p.time(RegistrationCacheParameters.POLL);
        long check = p.time(RegistrationCacheParameters.KDREG2_CHECK);
        assertEquals(lookup, MonitorKind.UFFD.lookupPs(p));
        assertEquals(lookup - poll + check, MonitorKind.KDREG2.lookupPs(p));
        assertTrue(MonitorKind.KDREG2.lookupPs(p) < MonitorKind.UFFD.lookupPs(p));
    }

    @Test
    void aPollLongerThanTheLookupItIsPartOfIsRefused() {
        Profile p = ProfileRegistry.load("default").withOverrides(Map.of("cache.poll", "1us"), "test");
        PolicyRefusal e = assertThrows(PolicyRefusal.class, () -> MonitorKind.KDREG2.lookupPs(p));
        assertTrue(e.getMessage().contains("cache.poll (1000 ns) exceeds cache.lookup (100 ns)"), e.getMessage());
    }
}
