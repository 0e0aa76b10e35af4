package org.pagefabric.hw.iommu;

import java.util.List;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.sim.RandomStream;

/**
 * The IOTLB: one or more {@link IotlbLevel}s (e.g. the SMMU's fully associative L1 and 4-way
 * L2) caching leaf PTE words per protection domain and page. A lookup probes level after level
 * and pays each probed level's lookup cost; a hit in a lower level is copied into the levels
 * above it; a walk's result fills every level. Levels are not inclusive: an eviction from one
 * level leaves the others alone, and invalidations clear every level.
 *
 * <p>Keys pack the domain (20 bits), the page size (4 KiB or 2 MiB) and the page number of a
 * 48-bit virtual address; a 2 MiB entry answers for every 4 KiB page inside it.
 */
public final class Iotlb {
    /** Largest protection domain id. */
    public static final int MAX_PDID = (1 << 20) - 1;
    /** Virtual addresses are below 2^48. */
    public static final int VA_BITS = 48;
    static final int PAGE_SHIFT = 12;
    static final int HUGE_SHIFT = 21;
    private static final int HUGE_FLAG_SHIFT = VA_BITS - PAGE_SHIFT;
    private static final int PDID_SHIFT = HUGE_FLAG_SHIFT + 1;
    /** Range invalidations of more pages than this scan the levels instead of probing pages. */
    private static final long PROBE_LIMIT = 64;

    private final IotlbLevel[] levels;
    private int lastHitLevel = -1;
    private long lastLookupPs;

    /** An IOTLB with the given levels, L1 first; random replacement draws from {@code random}. */
    public Iotlb(List<IotlbLevelConfig> configs, RandomStream random) {
        if (configs.isEmpty()) {
            throw new IllegalArgumentException("an IOTLB needs at least one level");
        }
        levels = new IotlbLevel[configs.size()];
        for (int i = 0; i < levels.length; i++) {
            levels[i] = new IotlbLevel(configs.get(i), random);
        }
    }

    /** The key of the page of {@code va} in domain {@code pdid}, 4 KiB or 2 MiB. */
    public static long key(int pdid, long va, boolean huge) {
        if (pdid < 0 || pdid > MAX_PDID) {
            throw new IllegalArgumentException("PDID " + pdid + " is not in 0.." + MAX_PDID);
        }
        if (va < 0 || (va >>> VA_BITS) != 0) {
            throw new IllegalArgumentException("virtual address 0x" + Long.toHexString(va) + " exceeds " + VA_BITS + " bits");
        }
        long vpn = huge ? va >>> HUGE_SHIFT : va >>> PAGE_SHIFT;
        return ((long) pdid << PDID_SHIFT) | (huge ? 1L << HUGE_FLAG_SHIFT : 0) | vpn;
    }

    /** Number of levels. */
    public int levelCount() {
        return levels.length;
    }

    /** Level {@code i} (0 is L1). */
    public IotlbLevel level(int i) {
        return levels[i];
    }

    /**
     * Looks the page of {@code va} up, level by level.
     *
     * @return the cached PTE word, or 0 on a miss in every level; {@link #lastHitLevel()} and
     *         {@link #lastLookupPs()} tell where and at what cost
     */
    public long lookup(int pdid, long va) {
        long small = key(pdid, va, false);
        long huge = key(pdid, va, true);
        long cost = 0;
        for (int i = 0; i < levels.length; i++) {
            IotlbLevel level = levels[i];
            cost += level.config().lookupPs();
            int slot = level.lookup(small);
            long key = small;
            if (slot < 0) {
                slot = level.lookup(huge);
                key = huge;
            }
            if (slot >= 0) {
                long pte = level.value(slot);
                for (int up = 0; up < i; up++) {
                    levels[up].insert(key, pte);
                }
                lastHitLevel = i;
                lastLookupPs = cost;
                return pte;
            }
        }
        lastHitLevel = -1;
        lastLookupPs = cost;
        return 0;
    }

    /** The level the last lookup hit in, or -1 for a miss. */
    public int lastHitLevel() {
        return lastHitLevel;
    }

    /** The cost of the last lookup: the lookup costs of the levels it probed. */
    public long lastLookupPs() {
        return lastLookupPs;
    }

    /** Caches a present leaf entry for the page of {@code va} in every level. */
    public void fill(int pdid, long va, long pte) {
        if (!Pte.has(pte, Pte.PRESENT)) {
            throw new IllegalArgumentException("only present entries are cached: " + Pte.describe(pte));
        }
        long key = key(pdid, va, Pte.has(pte, Pte.HUGE));
        for (IotlbLevel level : levels) {
            level.insert(key, pte);
        }
    }

    /** Removes the translation of the page of {@code va} (either page size) from every level. */
    public int invalidatePage(int pdid, long va) {
        long small = key(pdid, va, false);
        long huge = key(pdid, va, true);
        int n = 0;
        for (IotlbLevel level : levels) {
            n += level.invalidate(small) ? 1 : 0;
            n += level.invalidate(huge) ? 1 : 0;
        }
        return n;
    }

    /** Removes every translation of domain {@code pdid} overlapping {@code [va, va + length)}. */
    public int invalidateRange(int pdid, long va, long length) {
        if (length <= 0) {
            return 0;
        }
        long end = va + length;
        long firstPage = va >>> PAGE_SHIFT;
        long lastPage = (end - 1) >>> PAGE_SHIFT;
        int n = 0;
        if (lastPage - firstPage + 1 <= PROBE_LIMIT) {
            for (long p = firstPage; p <= lastPage; p++) {
                n += invalidatePage(pdid, p << PAGE_SHIFT);
            }
            return n;
        }
        long smallFrom = key(pdid, va, false);
        long smallTo = key(pdid, end - 1, false) + 1;
        long hugeFrom = key(pdid, va, true);
        long hugeTo = key(pdid, end - 1, true) + 1;
        for (IotlbLevel level : levels) {
            n += level.invalidateKeyRange(smallFrom, smallTo);
            n += level.invalidateKeyRange(hugeFrom, hugeTo);
        }
        return n;
    }

    /** Removes every translation of domain {@code pdid}. */
    public int invalidateDomain(int pdid) {
        long mask = -1L << PDID_SHIFT;
        long pattern = key(pdid, 0, false);
        int n = 0;
        for (IotlbLevel level : levels) {
            n += level.invalidateMatching(mask, pattern);
        }
        return n;
    }

    /** Removes everything. */
    public void invalidateAll() {
        for (IotlbLevel level : levels) {
            level.clear();
        }
    }
}
