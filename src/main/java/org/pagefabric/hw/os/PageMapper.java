package org.pagefabric.hw.os;

import java.util.List;
import org.pagefabric.hw.mem.FrameTable;
import org.pagefabric.hw.mem.PhysicalMemory;

/**
 * The page-mapping primitives every kernel feature shares: installing and removing mappings with
 * their map counts and reverse-map entries, invalidation brackets around a change, huge page
 * splits, zapping and unmapping ranges, and populating them. The {@link Kernel}'s system calls
 * and its features ({@link FaultHandler}, {@link Forker}, {@link HugePages}, ...) change page
 * tables only through these, so the accounting stays in one place.
 */
final class PageMapper {
    private static final long PAGE_SIZE = Kernel.PAGE_SIZE;
    private static final long HUGE_SIZE = Kernel.HUGE_SIZE;
    private static final int HUGE_PAGES = Kernel.HUGE_PAGES;

    private final Kernel k;
    private final PhysicalMemory memory;
    private final FrameTable frames;
    private final ReverseMap rmap;

    PageMapper(Kernel k) {
        this.k = k;
        this.memory = k.memory;
        this.frames = k.frames;
        this.rmap = k.rmap;
    }

    /**
     * A zeroed anonymous frame, reclaiming first if none is free and direct reclaim is on; -1 if
     * there is none even then. Never call between invalidateStart and invalidateEnd: reclaim
     * invalidates too.
     */
    long allocateAnon() {
        long f = memory.allocate(FrameTable.ANON);
        if (f < 0 && k.config.directReclaim()) {
            k.reclaimer.reclaim(k.config.directReclaimBatch());
            f = memory.allocate(FrameTable.ANON);
        }
        return f;
    }

    void invalidateStart(AddressSpace as, long start, long end, InvalidationReason reason) {
        int n = as.notifiers().invalidateStart(start, end, reason);
        k.stats.invalidations.increment();
        k.stats.notifierCallbacks.add(n);
        k.charge(k.costs.tlbShootdownPs() + k.costs.notifierInvalidatePs() * n);
    }

    void invalidateEnd(AddressSpace as, long start, long end, InvalidationReason reason) {
        as.notifiers().invalidateEnd(start, end, reason);
    }

    /** Installs a 4 KiB mapping of {@code frame} and accounts it. */
    void mapSmall(AddressSpace as, long va, long frame, long pte) {
        as.pageTable.setLeaf(va, pte);
        frames.addMapCount(frame, 1);
        rmap.add(frame, as.id(), va);
        as.residentPages++;
    }

    /** Installs a 2 MiB mapping of the compound page {@code head} and accounts it. */
    void mapHuge(AddressSpace as, long va, long head, long pte) {
        as.pageTable.setLevel2(va, pte | Pte.HUGE);
        for (int i = 0; i < HUGE_PAGES; i++) {
            frames.addMapCount(head + i, 1);
        }
        rmap.add(head, as.id(), va);
        as.residentPages += HUGE_PAGES;
    }

    /** Accounts the removal of a 4 KiB mapping whose entry the caller already cleared. */
    void unmapSmall(AddressSpace as, long va, long frame) {
        frames.addMapCount(frame, -1);
        rmap.remove(frame, as.id(), va);
        as.residentPages--;
        freeIfUnused(frame);
    }

    /** Accounts the removal of a 2 MiB mapping whose entry the caller already cleared. */
    void unmapHuge(AddressSpace as, long va, long head) {
        for (int i = 0; i < HUGE_PAGES; i++) {
            frames.addMapCount(head + i, -1);
        }
        rmap.remove(head, as.id(), va);
        as.residentPages -= HUGE_PAGES;
        if (frames.mapCount(head) > 0) {
            return;
        }
        boolean pinned = false;
        for (int i = 0; i < HUGE_PAGES && !pinned; i++) {
            pinned = frames.pinCount(head + i) > 0;
        }
        if (!pinned) {
            memory.freeHuge(head);
            return;
        }
        // pinned frames outlive the mapping one by one (the device still DMAs into them)
        memory.splitHuge(head);
        for (int i = 0; i < HUGE_PAGES; i++) {
            freeIfUnused(head + i);
        }
    }

    /** Frees a small frame once nothing maps or pins it. */
    void freeIfUnused(long frame) {
        if (frames.has(frame, FrameTable.ALLOCATED) && frames.mapCount(frame) == 0 && frames.pinCount(frame) == 0
                && (frames.flags(frame) & (FrameTable.HUGE_HEAD | FrameTable.HUGE_TAIL)) == 0) {
            memory.free(frame);
        }
    }

    /**
     * Splits the compound page {@code head} into 512 small pages in every address space mapping
     * it (split_huge_page): each mapping's 2 MiB entry becomes a level-1 table of 512 entries
     * with the same bits. Counts and pins carry over frame by frame.
     */
    void splitHugePage(long head) {
        int n = rmap.count(head);
        long[] mappings = new long[n];
        for (int i = 0; i < n; i++) {
            mappings[i] = rmap.get(head, i);
        }
        for (long m : mappings) {
            AddressSpace as = k.space(ReverseMap.asId(m));
            long va = ReverseMap.va(m);
            invalidateStart(as, va, va + HUGE_SIZE, InvalidationReason.HUGE_SPLIT);
            long pte = as.pageTable.level2(va);
            as.pageTable.setLevel2(va, 0);
            long[] l1 = as.pageTable.level1(va, true);
            long small = pte & ~Pte.HUGE;
            for (int i = 0; i < HUGE_PAGES; i++) {
                l1[i] = Pte.withFrame(small, head + i);
            }
            rmap.remove(head, as.id(), va);
            for (int i = 0; i < HUGE_PAGES; i++) {
                rmap.add(head + i, as.id(), va + i * PAGE_SIZE);
            }
            invalidateEnd(as, va, va + HUGE_SIZE, InvalidationReason.HUGE_SPLIT);
        }
        memory.splitHuge(head);
        k.charge(k.costs.thpSplitPs());
        k.stats.thpSplits.increment();
    }

    /** Splits the huge page mapped across {@code va} if {@code va} falls strictly inside one. */
    void splitHugeAt(AddressSpace as, long va) {
        if ((va & (HUGE_SIZE - 1)) == 0 || va >= PageTable.USER_TOP) {
            return;
        }
        long e = as.pageTable.level2(va);
        if ((e & Pte.HUGE) != 0 && (e & Pte.PRESENT) != 0) {
            splitHugePage(Pte.frame(e));
        }
    }

    /**
     * Removes the pages of {@code [start, end)} (zap_page_range): clears entries, drops map
     * counts, frees frames nothing maps or pins, drops swap references. Notifiers see one
     * invalidation of the range. Returns the resident pages removed.
     */
    long zapPages(AddressSpace as, long start, long end, InvalidationReason reason) {
        splitHugeAt(as, start);
        splitHugeAt(as, end);
        invalidateStart(as, start, end, reason);
        long[] present = {0};
        as.pageTable.forEach(start, end, (va, table, index, huge) -> {
            long pte = table[index];
            table[index] = 0;
            if ((pte & Pte.PRESENT) != 0) {
                if (huge) {
                    unmapHuge(as, va, Pte.frame(pte));
                    present[0] += HUGE_PAGES;
                } else {
                    unmapSmall(as, va, Pte.frame(pte));
                    present[0]++;
                }
            } else if ((pte & Pte.SWAPPED) != 0) {
                k.swap.drop(Pte.frame(pte));
                as.swapPages--;
            }
        });
        invalidateEnd(as, start, end, reason);
        return present[0];
    }

    /** Frees level-1 tables left empty in {@code [start, end)} (free_pgtables). */
    void freeTables(AddressSpace as, long start, long end) {
        for (long b = start & -HUGE_SIZE; b < end; b += HUGE_SIZE) {
            as.pageTable.freeLevel1IfEmpty(b);
        }
    }

    /** Unmaps whatever VMAs overlap {@code [start, end)}: pages, page tables, VMAs, locked_vm. */
    void unmapRange(AddressSpace as, long start, long end, InvalidationReason reason, UserfaultEvent.Kind event) {
        List<Vma> hit = as.vmas.overlapping(start, end);
        if (hit.isEmpty()) {
            return;
        }
        long from = Math.max(start, hit.get(0).start());
        long to = Math.min(end, hit.get(hit.size() - 1).end());
        if (event != null) {
            as.deliverUserfault(event, from, to);
        }
        // table ranges are taken before VMAs split: only the mapped parts can hold tables
        long[] ranges = new long[hit.size() * 2];
        for (int i = 0; i < hit.size(); i++) {
            ranges[2 * i] = Math.max(from, hit.get(i).start());
            ranges[2 * i + 1] = Math.min(to, hit.get(i).end());
        }
        long present = zapPages(as, from, to, reason);
        k.charge(k.costs.munmapPerPagePs() * present);
        as.vmas.splitAt(from);
        as.vmas.splitAt(to);
        for (Vma v : as.vmas.overlapping(from, to)) {
            if (v.has(Vma.LOCKED)) {
                as.lockedPages -= v.length() / PAGE_SIZE;
            }
            as.vmas.remove(v);
        }
        for (int i = 0; i < ranges.length; i += 2) {
            freeTables(as, ranges[i], ranges[i + 1]);
        }
    }

    /** Faults every page of {@code [start, end)} in (writes where writable, as populate does). */
    void populate(AddressSpace as, long start, long end) {
        for (long va = start; va < end; ) {
            Vma v = as.vmas.find(va);
            if (v == null || v.prot() == Prot.NONE) {
                va += PAGE_SIZE;
                continue;
            }
            k.faults.access(as, va, v.writable());
            va = as.pageTable.isHuge(va) ? (va & -HUGE_SIZE) + HUGE_SIZE : va + PAGE_SIZE;
        }
    }
}
