package org.pagefabric.hw.os;

import org.pagefabric.hw.mem.FrameTable;

/**
 * Page reclaim to swap: a clock (second chance) over physical frames, the classic approximation
 * of LRU. A page referenced since the hand last passed (accessed bit set in any mapping) has its
 * bits cleared and is spared; an unreferenced one is unmapped from every process through the
 * reverse map (MMU notifiers see RECLAIM), written to a swap slot and freed.
 *
 * <p>Never taken: pinned pages, pages mapped in an mlocked VMA, pages the kernel is busy with,
 * frames that are not anonymous user memory. A huge page is split first, as Linux does before
 * swapping a THP out.
 */
final class Reclaimer {
    private final Kernel k;
    private long hand;

    Reclaimer(Kernel kernel) {
        this.k = kernel;
    }

    ReclaimResult reclaim(long target) {
        long mark = k.spent;
        long scanned = 0;
        long reclaimed = 0;
        long limit = k.memory.highWatermark();
        // two sweeps: the first may only clear accessed bits
        long budget = 2 * limit + 1;
        while (reclaimed < target && scanned < budget && limit > 0 && k.swap.used() < k.swap.capacity()) {
            if (hand >= limit) {
                hand = 0;
            }
            long frame = hand++;
            scanned++;
            if (!candidate(frame)) {
                continue;
            }
            if (referenced(frame)) {
                continue;
            }
            if (k.frames.has(frame, FrameTable.HUGE_HEAD)) {
                k.splitHugePage(frame);
            }
            if (swapOut(frame)) {
                reclaimed++;
            }
        }
        k.charge(k.costs.reclaimScanPerPagePs() * scanned + k.costs.swapOutPerPagePs() * reclaimed);
        k.stats.reclaimScanned.add(scanned);
        k.stats.reclaimed.add(reclaimed);
        return new ReclaimResult(scanned, reclaimed, k.spent - mark);
    }

    /** Whether the frame is anonymous user memory that may leave RAM. */
    private boolean candidate(long frame) {
        int flags = k.frames.flags(frame);
        if ((flags & (FrameTable.ALLOCATED | FrameTable.ANON)) != (FrameTable.ALLOCATED | FrameTable.ANON)
                || (flags & (FrameTable.HUGE_TAIL | FrameTable.BUSY)) != 0 || k.frames.mapCount(frame) == 0) {
            return false;
        }
        int pages = (flags & FrameTable.HUGE_HEAD) != 0 ? Kernel.HUGE_PAGES : 1;
        for (int i = 0; i < pages; i++) {
            if (k.frames.pinCount(frame + i) > 0) {
                return false;
            }
        }
        int n = k.rmap.count(frame);
        for (int i = 0; i < n; i++) {
            long m = k.rmap.get(frame, i);
            Vma v = k.space(ReverseMap.asId(m)).vmas.find(ReverseMap.va(m));
            if (v != null && v.has(Vma.LOCKED)) {
                return false;
            }
        }
        return true;
    }

    /** page_referenced: tests and clears the accessed bit of every mapping. */
    private boolean referenced(long frame) {
        boolean young = false;
        int n = k.rmap.count(frame);
        for (int i = 0; i < n; i++) {
            long m = k.rmap.get(frame, i);
            AddressSpace as = k.space(ReverseMap.asId(m));
            long va = ReverseMap.va(m);
            long pte = as.pageTable.leaf(va);
            if ((pte & Pte.ACCESSED) != 0) {
                young = true;
                as.pageTable.setLeaf(va, pte & ~Pte.ACCESSED);
            }
        }
        return young;
    }

    /** try_to_unmap plus pageout: every mapping becomes a swap entry naming one slot. */
    private boolean swapOut(long frame) {
        if (k.swap.used() >= k.swap.capacity()) {
            return false;
        }
        int n = k.rmap.count(frame);
        long[] mappings = new long[n];
        for (int i = 0; i < n; i++) {
            mappings[i] = k.rmap.get(frame, i);
        }
        long slot = k.swap.store(k.memory.backing().detach(frame), n);
        for (long m : mappings) {
            AddressSpace as = k.space(ReverseMap.asId(m));
            long va = ReverseMap.va(m);
            k.invalidateStart(as, va, va + Kernel.PAGE_SIZE, InvalidationReason.RECLAIM);
            long pte = as.pageTable.leaf(va);
            as.pageTable.setLeaf(va, Pte.withFrame((pte & Kernel.DEVICE_BITS) | Pte.SWAPPED, slot));
            k.frames.addMapCount(frame, -1);
            k.rmap.remove(frame, as.id(), va);
            as.residentPages--;
            as.swapPages++;
            k.invalidateEnd(as, va, va + Kernel.PAGE_SIZE, InvalidationReason.RECLAIM);
        }
        k.memory.free(frame);
        return true;
    }
}
