package org.pagefabric.hw.os;

import org.pagefabric.hw.mem.FrameTable;

/**
 * Page reclaim to swap: a clock (second chance) over physical frames, the classic approximation
 * of LRU. A page referenced since the hand last passed (accessed bit set in any mapping, or a
 * device's use reported through the MMU notifiers' clear-young) has its bits cleared and is spared; an unreferenced one is unmapped from every process through the
 * reverse map (MMU notifiers see RECLAIM), written to a swap slot and freed.
 *
 * <p><b>Unmap batching</b> ({@link KernelConfig#unmapBatch()}). With a batch of 1 every mapping
 * of a victim is unmapped under its own MMU-notifier range, as Linux's try_to_unmap_one does: a
 * mirror such as ODP pays one invalidation (and one NIC fence) per page. With a batch of N,
 * victims are collected N at a time, swapped out, and their mappings unmapped in runs of adjacent
 * pages of one address space, one notifier range per run (001 "Future work: page invalidation
 * batching"). A collected victim is never looked at again in the same sweep: the batch is
 * unmapped before the hand wraps.
 *
 * <p>Never taken: pinned pages, pages mapped in an mlocked VMA, pages the kernel is busy with,
 * frames that are not anonymous user memory. A huge page is split first, as Linux does before
 * swapping a THP out.
 */
final class Reclaimer {
    private final Kernel k;
    private final int batch;
    private final long[] victims;
    private int pending;
    private long[] mappings = new long[64];
    private long[] slots = new long[64];
    private int mappingCount;
    private long hand;

    Reclaimer(Kernel kernel) {
        this.k = kernel;
        this.batch = kernel.config.unmapBatch();
        this.victims = new long[batch];
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
                // a victim must not be collected twice in one batch
                reclaimed += swapOutBatch();
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
                k.mapper.splitHugePage(frame);
            }
            if (batch == 1) {
                if (swapOut(frame)) {
                    reclaimed++;
                }
                continue;
            }
            victims[pending++] = frame;
            if (pending == batch || k.swap.used() + pending >= k.swap.capacity()) {
                reclaimed += swapOutBatch();
            }
        }
        reclaimed += swapOutBatch();
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

    /**
     * page_referenced: tests and clears the accessed bit of every mapping, and asks the MMU
     * notifiers of each mapping whether a device used the page (ptep_clear_flush_young_notify).
     */
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
            young |= as.notifiers().clearYoung(va, va + ((pte & Pte.HUGE) != 0 ? Kernel.HUGE_SIZE : Kernel.PAGE_SIZE));
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
            k.mapper.invalidateStart(as, va, va + Kernel.PAGE_SIZE, InvalidationReason.RECLAIM);
            long pte = as.pageTable.leaf(va);
            as.pageTable.setLeaf(va, Pte.withFrame((pte & Kernel.DEVICE_BITS) | Pte.SWAPPED, slot));
            k.frames.addMapCount(frame, -1);
            k.rmap.remove(frame, as.id(), va);
            as.residentPages--;
            as.swapPages++;
            k.mapper.invalidateEnd(as, va, va + Kernel.PAGE_SIZE, InvalidationReason.RECLAIM);
        }
        k.memory.free(frame);
        return true;
    }

    /**
     * Swaps the collected victims out: each to its own slot, then every mapping of them rewritten
     * to its swap entry, adjacent pages of one address space under one notifier range.
     *
     * @return victims swapped out
     */
    private int swapOutBatch() {
        int n = 0;
        for (int v = 0; v < pending; v++) {
            long frame = victims[v];
            int refs = k.rmap.count(frame);
            long slot = k.swap.store(k.memory.backing().detach(frame), refs);
            for (int i = 0; i < refs; i++) {
                add(k.rmap.get(frame, i), slot);
            }
        }
        int count = mappingCount;
        sortMappings(count);
        int i = 0;
        while (i < count) {
            int asId = ReverseMap.asId(mappings[i]);
            long start = ReverseMap.va(mappings[i]);
            int j = i + 1;
            while (j < count && ReverseMap.asId(mappings[j]) == asId
                    && ReverseMap.va(mappings[j]) == start + (long) (j - i) * Kernel.PAGE_SIZE) {
                j++;
            }
            AddressSpace as = k.space(asId);
            long end = start + (long) (j - i) * Kernel.PAGE_SIZE;
            k.mapper.invalidateStart(as, start, end, InvalidationReason.RECLAIM);
            for (int m = i; m < j; m++) {
                long va = ReverseMap.va(mappings[m]);
                long pte = as.pageTable.leaf(va);
                long frame = Pte.frame(pte);
                as.pageTable.setLeaf(va, Pte.withFrame((pte & Kernel.DEVICE_BITS) | Pte.SWAPPED, slots[m]));
                k.frames.addMapCount(frame, -1);
                k.rmap.remove(frame, asId, va);
                as.residentPages--;
                as.swapPages++;
            }
            k.mapper.invalidateEnd(as, start, end, InvalidationReason.RECLAIM);
            i = j;
        }
        for (int v = 0; v < pending; v++) {
            k.memory.free(victims[v]);
            n++;
        }
        pending = 0;
        mappingCount = 0;
        return n;
    }

    private void add(long mapping, long slot) {
        if (mappingCount == mappings.length) {
            mappings = java.util.Arrays.copyOf(mappings, mappingCount * 2);
            slots = java.util.Arrays.copyOf(slots, mappingCount * 2);
        }
        mappings[mappingCount] = mapping;
        slots[mappingCount++] = slot;
    }

    /** Insertion sort of the collected mappings by (address space, address), slots alongside: batches are small. */
    private void sortMappings(int count) {
        for (int i = 1; i < count; i++) {
            long m = mappings[i];
            long s = slots[i];
            int j = i - 1;
            while (j >= 0 && before(m, mappings[j])) {
                mappings[j + 1] = mappings[j];
                slots[j + 1] = slots[j];
                j--;
            }
            mappings[j + 1] = m;
            slots[j + 1] = s;
        }
    }

    /** Reverse-map words order by address space, then address (ReverseMap.encode). */
    private static boolean before(long a, long b) {
        return a < b;
    }
}
