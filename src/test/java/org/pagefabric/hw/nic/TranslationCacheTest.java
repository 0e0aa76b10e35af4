package org.pagefabric.hw.nic;

import org.pagefabric.hw.mem.PhysicalMemory;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pagefabric.hw.nic.NicBed.BASE;
import static org.pagefabric.hw.nic.NicBed.PAGE;

import org.junit.jupiter.api.Test;
import org.pagefabric.hw.iommu.ReplacementPolicy;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.stat.Counter;

/** The NIC's translation cache: hits and misses, the charged start delay, coherence with the table. */
class TranslationCacheTest {

    static TranslationCache cache(int entries, int ways) {
        return new TranslationCache(new TranslationCacheConfig(entries, ways, ReplacementPolicy.LRU),
                new RandomStream(1), new Counter("h", "lookups", ""), new Counter("m", "lookups", ""));
    }

    static MemoryRegion region(KeyTable keys, int pages) {
        MemoryRegion mr = keys.register(new ProtectionDomain(1, "p"), BASE, (long) pages * PAGE, 0, false);
        for (int i = 0; i < pages; i++) {
            mr.table().set(i, Pte.withFrame(Pte.PRESENT | Pte.READABLE, 100 + i));
        }
        return mr;
    }

    @Test
    void aRegionOfTwoMegabyteEntriesMissesOncePerBlockAndReadsEachPagesFrame() {
        TranslationCache c = new TranslationCache(new TranslationCacheConfig(4, 4, ReplacementPolicy.LRU, true),
                new RandomStream(1), new Counter("h", "lookups", ""), new Counter("m", "lookups", ""));
        MemoryRegion mr = region(new KeyTable(new RandomStream(2)), 1024);
        mr.setEntryShift(Nic.HUGE_ENTRY_SHIFT);
        for (int i = 0; i < 1024; i++) {
            assertEquals(100 + i, Pte.frame(c.entry(mr, i)), "page " + i + " reads its own frame through the block entry");
        }
        assertEquals((mr.firstPage() & 511) == 0 ? 2 : 3, c.misses(), "one miss per 2 MiB block the pages span");
        mr.table().set(5, 0);
        c.update(mr, 5, 0);
        assertEquals(0, c.entry(mr, 5), "a zapped page drops its block's entry");
    }

    @Test
    void onlyPagesOfHugePagesGetBlockEntries() {
        PhysicalMemory memory = new PhysicalMemory(4096L * PAGE);
        long head = memory.allocateHuge(0);
        long[] huge = new long[512];
        long[] small = new long[512];
        for (int i = 0; i < 512; i++) {
            huge[i] = head + i;
            small[i] = memory.allocate(0);
        }
        assertTrue(Nic.backedByHugeBlocks(head, huge, memory));
        assertFalse(Nic.backedByHugeBlocks(head + 1, huge, memory), "misaligned against the virtual pages");
        assertFalse(Nic.backedByHugeBlocks(small[0], small, memory), "4 KiB frames, contiguous or not, get one entry each");
    }

    @Test
    void countsHitsAndMissesAndEvictsLeastRecentlyUsed() {
        TranslationCache c = cache(4, 2); // 2 sets of 2 ways: even pages in set 0, odd in set 1
        MemoryRegion mr = region(new KeyTable(new RandomStream(2)), 16);
        c.entry(mr, 0);
        c.entry(mr, 2);
        c.entry(mr, 0);
        assertEquals(1, c.hits());
        assertEquals(2, c.misses());
        c.entry(mr, 4); // evicts page 2, the least recently used of set 0
        c.entry(mr, 0);
        c.entry(mr, 2);
        assertEquals(2, c.hits());
        assertEquals(4, c.misses());
        assertEquals(100 + 2, Pte.frame(c.entry(mr, 2)));
    }

    @Test
    void nonPresentEntriesAreNotCachedAndUpdatesWriteThrough() {
        TranslationCache c = cache(8, 8);
        KeyTable keys = new KeyTable(new RandomStream(3));
        MemoryRegion mr = keys.register(new ProtectionDomain(1, "p"), BASE, 4L * PAGE, 0, false);
        assertEquals(0, c.entry(mr, 1));
        assertEquals(0, c.entry(mr, 1));
        assertEquals(2, c.misses(), "a non-present entry is read again every time");
        long e = Pte.withFrame(Pte.PRESENT, 42);
        mr.table().set(1, e);
        c.entry(mr, 1);
        long moved = Pte.withFrame(Pte.PRESENT, 43);
        mr.table().set(1, moved);
        c.update(mr, 1, moved);
        assertEquals(moved, c.entry(mr, 1));
        c.invalidate(mr, 0, 4);
        assertEquals(0, c.size());
    }

    @Test
    void invalidatingARegionLeavesOtherRegionsCached() {
        TranslationCache c = cache(8, 8);
        KeyTable keys = new KeyTable(new RandomStream(4));
        MemoryRegion x = region(keys, 2);
        MemoryRegion y = region(keys, 2);
        c.entry(x, 0);
        c.entry(x, 1);
        c.entry(y, 0);
        c.invalidate(x, 0, 100); // larger than the cache: drops all of x at once
        assertEquals(1, c.size());
        c.entry(y, 0);
        assertEquals(1, c.hits());
    }

    /** Time from posting a write to its completion. */
    static long writeLatency(NicBed bed, QueuePair qp, MemoryRegion src, MemoryRegion dst, long va, int len, long id) {
        long posted = bed.sim.now();
        qp.postSend(WorkRequest.write(id, va, len, src.lkey(), dst.address(), dst.rkey()));
        bed.sim.run();
        WorkCompletion wc = bed.a.drain().get((int) id);
        assertEquals(CompletionStatus.SUCCESS, wc.status());
        return wc.timePs() - posted;
    }

    @Test
    void aColdCacheDelaysTheMessageStartByItsMisses() {
        NicBed bed = new NicBed();
        QueuePair[] qp = bed.connect();
        MemoryRegion src = bed.a.pinned(BASE, 4, 0);
        MemoryRegion dst = bed.b.pinned(BASE, 4, AccessFlags.REMOTE_WRITE);
        TranslationCache cache = bed.a.nic.translationCache();
        // 4096 bytes from an unaligned address: the first (only) packet spans two pages.
        long cold = writeLatency(bed, qp[0], src, dst, BASE + 100, PAGE, 0);
        long missesAfterCold = cache.misses();
        assertEquals(2, missesAfterCold);
        long warm = writeLatency(bed, qp[0], src, dst, BASE + 100, PAGE, 1);
        assertEquals(missesAfterCold, cache.misses(), "the second start hits");
        assertEquals(2 * NicBed.COSTS.translationMissPs(), cold - warm);
        assertTrue(cache.hits() >= 4, "the payload reads hit what the start fetched");
    }

    @Test
    void withoutACacheTranslationIsFreeAndUncounted() {
        NicBed bed = new NicBed(11, null);
        QueuePair[] qp = bed.connect();
        MemoryRegion src = bed.a.pinned(BASE, 4, 0);
        MemoryRegion dst = bed.b.pinned(BASE, 4, AccessFlags.REMOTE_WRITE);
        long first = writeLatency(bed, qp[0], src, dst, BASE + 100, PAGE, 0);
        long second = writeLatency(bed, qp[0], src, dst, BASE + 100, PAGE, 1);
        assertEquals(first, second);
        assertFalse(bed.a.nic.translationCache().modelled());
        assertEquals(0, bed.a.nic.translationCache().misses());
    }

    @Test
    void responderMissesAreCountedButCostNoTime() {
        NicBed bed = new NicBed();
        QueuePair[] qp = bed.connect();
        MemoryRegion src = bed.a.pinned(BASE, 4, 0);
        MemoryRegion dst = bed.b.pinned(BASE, 4, AccessFlags.REMOTE_WRITE);
        writeLatency(bed, qp[0], src, dst, BASE, 2 * PAGE, 0);
        assertEquals(2, bed.b.nic.translationCache().misses());
        Counter uncharged = (Counter) bed.sim.statistics().get("node1.nic.translation_miss_uncharged_ps");
        assertEquals(2 * NicBed.COSTS.translationMissPs(), uncharged.value());
    }

    @Test
    void remappingAfterAZapUsesTheNewFramesNotAStaleCachedOne() {
        NicBed bed = new NicBed();
        QueuePair[] qp = bed.connect();
        MemoryRegion src = bed.a.pinned(BASE, 1, 0);
        MemoryRegion dst = bed.b.pinned(BASE, 1, AccessFlags.REMOTE_WRITE);
        bed.a.store(BASE, NicBed.pattern(PAGE, 1));
        writeLatency(bed, qp[0], src, dst, BASE, PAGE, 0);
        long oldFrame = Pte.frame(NicBed.Host.entry(dst, BASE));
        // The page migrates: invalidate, then map the new frame.
        long newFrame = bed.b.memory.allocate(0);
        assertEquals(1, bed.b.nic.zap(dst, BASE, PAGE));
        bed.b.nic.mapPages(dst, BASE, new long[] {newFrame});
        bed.a.store(BASE, NicBed.pattern(PAGE, 2));
        writeLatency(bed, qp[0], src, dst, BASE, PAGE, 1);
        byte[] got = new byte[PAGE];
        bed.b.memory.read(newFrame, 0, got, 0, PAGE);
        assertArrayEquals(NicBed.pattern(PAGE, 2), got);
        bed.b.memory.read(oldFrame, 0, got, 0, PAGE);
        assertArrayEquals(NicBed.pattern(PAGE, 1), got, "the old frame kept the first write only");
        assertNotEquals(oldFrame, newFrame);
    }
}
