package org.pagefabric.hw.os;

/**
 * Policy and layout of the memory manager (what a sysctl or the architecture fixes, not costs).
 *
 * @param thp                transparent huge page mode
 * @param directReclaim      whether an allocation that finds no free frame reclaims (swaps out)
 *                           before failing, as Linux's direct reclaim does
 * @param directReclaimBatch pages direct reclaim tries to free per attempt (Linux: SWAP_CLUSTER_MAX)
 * @param heapStart          where each process's brk heap starts (page-aligned)
 * @param mmapBottom         lowest address mmap hands out
 * @param mmapTop            mmap allocates top-down from here
 * @param maxMapCount        vm.max_map_count: VMAs a process may have; a split or mmap past it fails with ENOMEM
 * @param forkPinned         what fork does to pinned pages
 */
public record KernelConfig(ThpMode thp, boolean directReclaim, int directReclaimBatch,
        long heapStart, long mmapBottom, long mmapTop, int maxMapCount,
        ForkPinnedPages forkPinned) {
    private static final long PAGE_MASK = 4095;
    /**
     * Linux's DEFAULT_MAX_MAP_COUNT, USHRT_MAX - MAPCOUNT_ELF_CORE_MARGIN = 65535 - 5
     * (include/linux/mm.h; Documentation/admin-guide/sysctl/vm.rst, max_map_count).
     */
    public static final int LINUX_MAX_MAP_COUNT = 65530;

    /** A configuration with Linux's default vm.max_map_count and early copy of pinned pages at fork. */
    public KernelConfig(ThpMode thp, boolean directReclaim, int directReclaimBatch, long heapStart, long mmapBottom,
                        long mmapTop) {
        this(thp, directReclaim, directReclaimBatch, heapStart, mmapBottom, mmapTop, LINUX_MAX_MAP_COUNT,
                ForkPinnedPages.EARLY_COPY);
    }

    /** Validates the layout. */
    public KernelConfig {
        if (thp == null) {
            throw new IllegalArgumentException("KernelConfig.thp must be NEVER, MADVISE or ALWAYS");
        }
        if (forkPinned == null) {
            throw new IllegalArgumentException("KernelConfig.forkPinned must be EARLY_COPY or SHARED_COW");
        }
        if (directReclaimBatch <= 0) {
            throw new IllegalArgumentException("KernelConfig.directReclaimBatch must be positive, was " + directReclaimBatch);
        }
        if ((heapStart & PAGE_MASK) != 0 || (mmapBottom & PAGE_MASK) != 0 || (mmapTop & PAGE_MASK) != 0
                || heapStart <= 0 || mmapBottom <= heapStart || mmapTop <= mmapBottom || mmapTop > PageTable.USER_TOP) {
            throw new IllegalArgumentException("KernelConfig layout must be page-aligned with 0 < heapStart < mmapBottom < mmapTop <= 2^47");
        }
        if (maxMapCount < 1) {
            throw new IllegalArgumentException("KernelConfig.maxMapCount must be positive, was " + maxMapCount);
        }
    }

    /**
     * The x86-64 Linux layout: the heap just above a PIE binary (0x5555_5600_0000), the mmap
     * region handed out top-down from below the stack (0x7fff_0000_0000) and kept above
     * 0x6000_0000_0000 so the heap has room to grow; direct reclaim on with
     * SWAP_CLUSTER_MAX = 32 pages; pinned pages copied early at fork, as since Linux 5.9.
     */
    public static KernelConfig linux(ThpMode thp) {
        return linux(thp, LINUX_MAX_MAP_COUNT, ForkPinnedPages.EARLY_COPY);
    }

    /** The x86-64 Linux layout of {@link #linux(ThpMode)} with a vm.max_map_count of {@code maxMapCount}. */
    public static KernelConfig linux(ThpMode thp, int maxMapCount) {
        return linux(thp, maxMapCount, ForkPinnedPages.EARLY_COPY);
    }

    /** The x86-64 Linux layout of {@link #linux(ThpMode)} with a chosen fork behaviour. */
    public static KernelConfig linux(ThpMode thp, ForkPinnedPages forkPinned) {
        return linux(thp, LINUX_MAX_MAP_COUNT, forkPinned);
    }

    /** The x86-64 Linux layout of {@link #linux(ThpMode)} with a vm.max_map_count and a fork behaviour. */
    public static KernelConfig linux(ThpMode thp, int maxMapCount, ForkPinnedPages forkPinned) {
        return new KernelConfig(thp, true, 32, 0x5555_5600_0000L, 0x6000_0000_0000L, 0x7fff_0000_0000L, maxMapCount,
                forkPinned);
    }
}
