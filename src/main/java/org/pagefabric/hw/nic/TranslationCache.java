package org.pagefabric.hw.nic;

import org.pagefabric.hw.iommu.IotlbLevel;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.stat.Counter;

/**
 * The NIC's on-chip cache of translation entries: a set-associative cache (an {@link IotlbLevel})
 * keyed by region and page, holding the entry word the NIC uses. A miss reads the entry from the
 * region's {@link TranslationTable} (in real hardware a PCIe read of the memory translation
 * table) and fills the cache if the entry is present; non-present entries are not cached, so the
 * access after a fault is resolved misses again and reads the new entry.
 *
 * <p>Entries stay coherent with the table because every change to it goes through the NIC:
 * {@link Nic#mapPages} writes through to cached entries (a UMR-style update), {@link Nic#zap}
 * and deregistration invalidate them.
 *
 * <p>Without a configuration the cache is not modelled: every lookup reads the table, costs
 * nothing and counts neither as hit nor as miss.
 */
public final class TranslationCache {
    /** Key bits for the page index within a region: the table's whole range. */
    private static final int PAGE_BITS = 35;
    private static final long PAGE_MASK = (1L << PAGE_BITS) - 1;

    private final IotlbLevel level;
    private final boolean hugeEntries;
    private final Counter hits;
    private final Counter misses;

    TranslationCache(TranslationCacheConfig config, RandomStream random, Counter hits, Counter misses) {
        this.level = config == null ? null : new IotlbLevel(config.level(), random);
        this.hugeEntries = config != null && config.hugeEntries();
        this.hits = hits;
        this.misses = misses;
    }

    /** Whether a cache is modelled (misses cost time); false if translation is free. */
    public boolean modelled() {
        return level != null;
    }

    /** Whether a region backed by 2 MiB blocks gets one entry per block. */
    boolean hugeEntries() {
        return hugeEntries;
    }

    /** Lookups that found their entry cached. */
    public long hits() {
        return hits.value();
    }

    /** Lookups that had to read the translation table. */
    public long misses() {
        return misses.value();
    }

    /** Entries cached now. */
    public int size() {
        return level == null ? 0 : level.size();
    }

    /** The cache key of the entry translating page {@code page} (relative to the region's first page). */
    private static long key(MemoryRegion mr, long page) {
        int shift = mr.entryShift();
        long entry = shift == 0 ? page : ((mr.firstPage() + page) >>> shift) - (mr.firstPage() >>> shift);
        return (long) mr.index() << PAGE_BITS | entry;
    }

    /** The entry for page {@code page} (relative to the region's first page), through the cache. */
    long entry(MemoryRegion mr, long page) {
        if (level == null) {
            return mr.table().get(page);
        }
        long key = key(mr, page);
        int slot = level.lookup(key);
        if (slot >= 0) {
            hits.increment();
            // A 2 MiB entry covers the block: the page's frame is its offset in the block, which
            // the region's table (kept coherent with the cache) holds.
            return mr.entryShift() == 0 ? level.value(slot) : mr.table().get(page);
        }
        misses.increment();
        long e = mr.table().get(page);
        if ((e & Pte.PRESENT) != 0) {
            level.insert(key, e);
        }
        return e;
    }

    /** The table changed an entry: a cached copy takes the new value (or leaves, if no longer present). */
    void update(MemoryRegion mr, long page, long entry) {
        if (level == null) {
            return;
        }
        long key = key(mr, page);
        if (level.find(key) >= 0) {
            if ((entry & Pte.PRESENT) != 0 && mr.entryShift() == 0) {
                level.insert(key, entry);
            } else {
                level.invalidate(key);
            }
        }
    }

    /**
     * Drops cached entries of {@code count} pages from {@code page}. A range larger than the
     * cache drops every entry of the region instead, in one pass (a superset, which is safe).
     */
    void invalidate(MemoryRegion mr, long page, long count) {
        if (level == null) {
            return;
        }
        if (count > level.config().entries() || mr.entryShift() != 0) {
            invalidateRegion(mr);
            return;
        }
        for (long i = 0; i < count; i++) {
            level.invalidate(key(mr, page + i));
        }
    }

    /** Drops every cached entry of a region (deregistration: its index may be reused). */
    void invalidateRegion(MemoryRegion mr) {
        if (level != null) {
            level.invalidateMatching(~PAGE_MASK, (long) mr.index() << PAGE_BITS);
        }
    }
}
