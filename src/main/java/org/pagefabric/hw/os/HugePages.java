package org.pagefabric.hw.os;

import org.pagefabric.hw.mem.FrameTable;

/**
 * Transparent huge pages beyond the fault path: khugepaged's collapse of a 2 MiB-aligned block of
 * small pages into one huge page, and splitting a huge page back. Collapse is refused when a page
 * of the block is pinned (EBUSY), swapped out, shared with another process, busy, or carries
 * different device bits (EAGAIN): the cases in which khugepaged gives up or waits.
 */
final class HugePages {
    private final Kernel k;

    HugePages(Kernel kernel) {
        this.k = kernel;
    }

    PageOpResult collapse(AddressSpace as, long va) {
        k.checkAlive(as);
        long mark = k.spent;
        long base = va & -Kernel.HUGE_SIZE;
        Vma v = as.vmas.find(base);
        if (v == null || base + Kernel.HUGE_SIZE > v.end() || !eligible(v)) {
            return new PageOpResult(Errno.EINVAL, 0);
        }
        long l2 = as.pageTable.level2(base);
        if ((l2 & Pte.HUGE) != 0) {
            return new PageOpResult(Errno.EINVAL, 0);
        }
        long[] l1 = as.pageTable.level1(base, false);
        if (l1 == null) {
            return new PageOpResult(Errno.EINVAL, 0);
        }
        int present = 0;
        long device = -1;
        for (int i = 0; i < Kernel.HUGE_PAGES; i++) {
            long pte = l1[i];
            if (pte == 0) {
                continue;
            }
            if ((pte & Pte.PRESENT) == 0) {
                return new PageOpResult(Errno.EAGAIN, 0);
            }
            long f = Pte.frame(pte);
            if (k.frames.pinCount(f) > 0) {
                return new PageOpResult(Errno.EBUSY, 0);
            }
            if (k.frames.mapCount(f) != 1 || k.frames.has(f, FrameTable.BUSY)) {
                return new PageOpResult(Errno.EAGAIN, 0);
            }
            long bits = pte & Kernel.DEVICE_BITS;
            if (device >= 0 && bits != device) {
                return new PageOpResult(Errno.EAGAIN, 0);
            }
            device = bits;
            present++;
        }
        if (present == 0) {
            return new PageOpResult(Errno.EINVAL, 0);
        }
        long head = k.memory.allocateHuge(FrameTable.ANON);
        if (head < 0) {
            return new PageOpResult(Errno.EAGAIN, 0);
        }
        k.mapper.invalidateStart(as, base, base + Kernel.HUGE_SIZE, InvalidationReason.HUGE_COLLAPSE);
        boolean dirty = false;
        for (int i = 0; i < Kernel.HUGE_PAGES; i++) {
            long pte = l1[i];
            if (pte == 0) {
                continue;
            }
            long f = Pte.frame(pte);
            dirty |= (pte & Pte.DIRTY) != 0;
            k.memory.backing().movePage(f, head + i);
            l1[i] = 0;
            k.mapper.unmapSmall(as, base + i * Kernel.PAGE_SIZE, f);
        }
        as.pageTable.freeLevel1IfEmpty(base);
        k.mapper.mapHuge(as, base, head, Pte.withFrame(FaultHandler.entry(device, v, dirty), head));
        k.mapper.invalidateEnd(as, base, base + Kernel.HUGE_SIZE, InvalidationReason.HUGE_COLLAPSE);
        k.charge(k.costs.thpCollapsePs());
        k.stats.thpCollapses.increment();
        return new PageOpResult(null, k.spent - mark);
    }

    PageOpResult split(AddressSpace as, long va) {
        k.checkAlive(as);
        long mark = k.spent;
        long l2 = as.pageTable.level2(va);
        if ((l2 & Pte.HUGE) == 0 || (l2 & Pte.PRESENT) == 0) {
            return new PageOpResult(Errno.EINVAL, 0);
        }
        k.mapper.splitHugePage(Pte.frame(l2));
        return new PageOpResult(null, k.spent - mark);
    }

    private boolean eligible(Vma v) {
        return switch (k.config.thp()) {
            case NEVER -> false;
            case MADVISE -> v.has(Vma.HUGEPAGE);
            case ALWAYS -> !v.has(Vma.NOHUGEPAGE);
        };
    }
}
