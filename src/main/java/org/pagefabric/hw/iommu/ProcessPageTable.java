package org.pagefabric.hw.iommu;

/**
 * The page table an IOMMU context bank walks: the process's own page table (shared virtual
 * addressing). Entries are {@link org.pagefabric.hw.os.Pte} words; a word of 0 or one without
 * {@code PRESENT} is a translation fault. A leaf with {@code HUGE} set maps 2 MiB and its frame
 * number is that of the first 4 KiB frame.
 */
public interface ProcessPageTable {
    /** The leaf entry for {@code va}, or 0 if the walk finds none. */
    long leafEntry(long va);

    /**
     * The number of table levels the walk for {@code va} reads, each one memory access (e.g. 4
     * for a 4 KiB leaf in a four-level table, 3 for a 2 MiB leaf, fewer if a missing level ends
     * the walk early).
     */
    int levelsWalked(long va);
}
