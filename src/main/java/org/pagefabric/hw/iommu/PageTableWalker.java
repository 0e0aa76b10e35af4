package org.pagefabric.hw.iommu;

/**
 * Walks a process page table for the IOMMU: one memory access per level read, each
 * {@link IommuCosts#walkAccessPs()}.
 */
public final class PageTableWalker {
    private final long accessPs;
    private int lastLevels;
    private long walks;
    private long accesses;

    /** A walker charging {@code accessPs} per level. */
    public PageTableWalker(long accessPs) {
        if (accessPs < 0) {
            throw new IllegalArgumentException("walk access cost must not be negative, got " + accessPs);
        }
        this.accessPs = accessPs;
    }

    /** Walks {@code table} for {@code va}; returns the leaf entry (0 if none). */
    public long walk(ProcessPageTable table, long va) {
        int levels = table.levelsWalked(va);
        if (levels <= 0) {
            throw new IllegalStateException("a walk reads at least one level, the page table says " + levels);
        }
        lastLevels = levels;
        walks++;
        accesses += levels;
        return table.leafEntry(va);
    }

    /** Levels read by the last walk. */
    public int lastLevels() {
        return lastLevels;
    }

    /** Cost of the last walk in picoseconds. */
    public long lastCostPs() {
        return lastLevels * accessPs;
    }

    /** Walks so far. */
    public long walks() {
        return walks;
    }

    /** Memory accesses of all walks so far. */
    public long accesses() {
        return accesses;
    }
}
