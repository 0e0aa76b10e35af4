package org.pagefabric.hw.os;

import org.agrona.collections.Long2LongHashMap;

/**
 * libibverbs' fork protection of registered memory in one process (libibverbs/memory.c, the
 * {@code mm_root} range tree behind ibv_dontfork_range and ibv_dofork_range): registering marks
 * the range MADV_DONTFORK, and deregistering marks MADV_DOFORK again the pages no other
 * registration still holds, so overlapping registrations keep their pages protected.
 *
 * <p>Every change of VM_DONTCOPY splits the VMA at the range's edges; MADV_DOFORK lets the kernel
 * merge them again. What the process is left with is counted against vm.max_map_count.
 */
public final class DontforkRanges {
    private final Kernel kernel;
    private final AddressSpace process;
    /** Registrations holding each page (absent: none). */
    private final Long2LongHashMap holds = new Long2LongHashMap(0);

    /** Fork protection of {@code process}'s registrations. */
    public DontforkRanges(Kernel kernel, AddressSpace process) {
        this.kernel = kernel;
        this.process = process;
    }

    /**
     * ibv_dontfork_range: madvise(MADV_DONTFORK) over the whole pages of {@code [start, start + length)}.
     *
     * @return kernel time, picoseconds
     * @throws OsException ENOMEM when the split would pass vm.max_map_count (nothing is held then)
     */
    public long dontfork(long start, long length) {
        long first = start & -Kernel.PAGE_SIZE;
        long end = Math.ceilDiv(start + length, Kernel.PAGE_SIZE) * Kernel.PAGE_SIZE;
        long ps = kernel.madvise(process, first, end - first, Advice.DONTFORK);
        for (long page = first / Kernel.PAGE_SIZE; page < end / Kernel.PAGE_SIZE; page++) {
            holds.put(page, holds.get(page) + 1);
        }
        return ps;
    }

    /**
     * ibv_dofork_range: releases the range's hold on its pages and marks MADV_DOFORK each run of
     * pages no registration holds any more. A page unmapped meanwhile (freed before deregistration)
     * is skipped, as rdma-core retries page by page when madvise meets a hole (rdma-core PR #824).
     *
     * @return kernel time, picoseconds
     */
    public long dofork(long start, long length) {
        long firstPage = (start & -Kernel.PAGE_SIZE) / Kernel.PAGE_SIZE;
        long endPage = Math.ceilDiv(start + length, Kernel.PAGE_SIZE);
        long ps = 0;
        long runStart = -1;
        for (long page = firstPage; page <= endPage; page++) {
            boolean freed = false;
            if (page < endPage) {
                long left = holds.get(page) - 1;
                if (left <= 0) {
                    holds.remove(page);
                    freed = true;
                } else {
                    holds.put(page, left);
                }
            }
            if (freed && runStart < 0) {
                runStart = page;
            } else if (!freed && runStart >= 0) {
                ps += doforkRun(runStart, page);
                runStart = -1;
            }
        }
        return ps;
    }

    private long doforkRun(long fromPage, long toPage) {
        try {
            return kernel.madvise(process, fromPage * Kernel.PAGE_SIZE, (toPage - fromPage) * Kernel.PAGE_SIZE,
                    Advice.DOFORK);
        } catch (OsException hole) {
            long ps = hole.costPs();
            for (long page = fromPage; page < toPage; page++) {
                try {
                    ps += kernel.madvise(process, page * Kernel.PAGE_SIZE, Kernel.PAGE_SIZE, Advice.DOFORK);
                } catch (OsException unmapped) {
                    ps += unmapped.costPs();
                }
            }
            return ps;
        }
    }

    /** Pages some registration holds protected. */
    public long heldPages() {
        return holds.size();
    }
}
