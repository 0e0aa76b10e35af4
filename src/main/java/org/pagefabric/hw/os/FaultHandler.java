package org.pagefabric.hw.os;

import org.pagefabric.hw.mem.FrameTable;
import org.pagefabric.hw.mem.PageBacking;

/**
 * The page fault path of anonymous memory (handle_mm_fault): present pages just get their
 * accessed and dirty bits; absent ones are zero-filled (a 2 MiB page when the VMA is eligible for
 * transparent huge pages and one is free), swapped ones are read back, write-protected ones are
 * upgraded or copied (copy-on-write); accesses outside any VMA or against its protection are
 * refused as SIGSEGV would be.
 */
final class FaultHandler {
    private final Kernel k;

    FaultHandler(Kernel kernel) {
        this.k = kernel;
    }

    Fault access(AddressSpace as, long va, boolean write) {
        if (va < 0 || va >= PageTable.USER_TOP) {
            return segv(as, FaultKind.SEGV_MAPERR);
        }
        long pte = as.pageTable.leaf(va);
        long need = Pte.PRESENT | (write ? Pte.WRITABLE : Pte.READABLE);
        if ((pte & need) == need) {
            // the hit path: what the MMU does by itself, no kernel time and no allocation
            long updated = pte | Pte.ACCESSED | (write ? Pte.DIRTY : 0);
            if (updated != pte) {
                as.pageTable.setLeaf(va, updated);
            }
            return Fault.NONE;
        }
        Vma v = as.vmas.find(va);
        if (v == null) {
            return segv(as, FaultKind.SEGV_MAPERR);
        }
        if (write ? !v.writable() : !v.readable()) {
            return segv(as, FaultKind.SEGV_ACCERR);
        }
        long mark = k.spent;
        FaultKind kind;
        if ((pte & Pte.PRESENT) != 0) {
            kind = write ? writeProtected(as, v, va, pte) : readable(as, va, pte);
        } else if ((pte & Pte.SWAPPED) != 0) {
            kind = swapIn(as, v, va, pte, write);
        } else {
            kind = zeroFill(as, v, va, write);
        }
        if (kind == FaultKind.OOM) {
            k.stats.ooms.increment();
        }
        return new Fault(kind, k.spent - mark);
    }

    private Fault segv(AddressSpace as, FaultKind kind) {
        as.segvs++;
        k.stats.segvs.increment();
        return new Fault(kind, 0);
    }

    /** Present, VMA readable, entry not: the entry lagged a protection change; fix it up. */
    private FaultKind readable(AddressSpace as, long va, long pte) {
        as.pageTable.setLeaf(va, pte | Pte.READABLE | Pte.ACCESSED);
        k.charge(k.costs.minorFaultPs());
        as.minorFaults++;
        k.stats.minorFaults.increment();
        return FaultKind.MINOR;
    }

    /** do_wp_page: reuse the page if this is its only mapping, else copy it. */
    private FaultKind writeProtected(AddressSpace as, Vma v, long va, long pte) {
        boolean huge = (pte & Pte.HUGE) != 0;
        long frame = Pte.frame(pte);
        boolean wasCow = (pte & Pte.COW) != 0;
        k.charge(k.costs.minorFaultPs());
        if (k.frames.mapCount(frame) == 1) {
            long updated = (pte & ~Pte.COW) | Pte.WRITABLE | Pte.ACCESSED | Pte.DIRTY;
            as.pageTable.setLeaf(va, updated);
            return counted(as, wasCow ? FaultKind.COW : FaultKind.MINOR);
        }
        if (huge) {
            return copyHuge(as, va, pte);
        }
        return copySmall(as, va & -Kernel.PAGE_SIZE, pte);
    }

    private FaultKind copySmall(AddressSpace as, long base, long pte) {
        long frame = Pte.frame(pte);
        // PG_locked on the old page: direct reclaim inside the allocation must not take it
        k.frames.set(frame, FrameTable.BUSY);
        long copy = k.mapper.allocateAnon();
        k.frames.clear(frame, FrameTable.BUSY);
        if (copy < 0) {
            return FaultKind.OOM;
        }
        k.mapper.invalidateStart(as, base, base + Kernel.PAGE_SIZE, InvalidationReason.COW);
        k.memory.backing().copyPage(frame, copy);
        long updated = Pte.withFrame((pte & ~Pte.COW) | Pte.WRITABLE | Pte.ACCESSED | Pte.DIRTY, copy);
        as.pageTable.setLeaf(base, updated);
        k.frames.addMapCount(frame, -1);
        k.rmap.remove(frame, as.id(), base);
        k.frames.addMapCount(copy, 1);
        k.rmap.add(copy, as.id(), base);
        k.mapper.invalidateEnd(as, base, base + Kernel.PAGE_SIZE, InvalidationReason.COW);
        k.charge(k.costs.cowCopyPerPagePs());
        return counted(as, FaultKind.COW);
    }

    private FaultKind copyHuge(AddressSpace as, long va, long pte) {
        long head = Pte.frame(pte);
        long base = va & -Kernel.HUGE_SIZE;
        long copy = k.memory.allocateHuge(FrameTable.ANON);
        if (copy < 0) {
            // no 2 MiB page free: split, then copy only the 4 KiB page written (as Linux does)
            k.mapper.splitHugePage(head);
            return copySmall(as, va & -Kernel.PAGE_SIZE, as.pageTable.leaf(va));
        }
        k.mapper.invalidateStart(as, base, base + Kernel.HUGE_SIZE, InvalidationReason.COW);
        PageBacking b = k.memory.backing();
        for (int i = 0; i < Kernel.HUGE_PAGES; i++) {
            b.copyPage(head + i, copy + i);
            k.frames.addMapCount(head + i, -1);
            k.frames.addMapCount(copy + i, 1);
        }
        k.rmap.remove(head, as.id(), base);
        k.rmap.add(copy, as.id(), base);
        as.pageTable.setLevel2(base, Pte.withFrame((pte & ~Pte.COW) | Pte.WRITABLE | Pte.ACCESSED | Pte.DIRTY, copy));
        k.mapper.invalidateEnd(as, base, base + Kernel.HUGE_SIZE, InvalidationReason.COW);
        k.charge(k.costs.cowCopyPerPagePs() * Kernel.HUGE_PAGES);
        return counted(as, FaultKind.COW);
    }

    /** do_swap_page: a fresh frame with the slot's content; exclusive, so writable if the VMA is. */
    private FaultKind swapIn(AddressSpace as, Vma v, long va, long pte, boolean write) {
        long frame = k.mapper.allocateAnon();
        if (frame < 0) {
            return FaultKind.OOM;
        }
        long slot = Pte.frame(pte);
        k.memory.backing().attach(frame, k.swap.take(slot));
        long base = va & -Kernel.PAGE_SIZE;
        k.mapper.mapSmall(as, base, frame, Pte.withFrame(entry(pte & Kernel.DEVICE_BITS, v, write), frame));
        as.swapPages--;
        k.charge(k.costs.majorFaultPs());
        as.majorFaults++;
        k.stats.majorFaults.increment();
        return FaultKind.MAJOR;
    }

    /** do_anonymous_page / do_huge_pmd_anonymous_page. */
    private FaultKind zeroFill(AddressSpace as, Vma v, long va, boolean write) {
        long base = va & -Kernel.HUGE_SIZE;
        if (hugeEligible(v, base)) {
            as.pageTable.freeLevel1IfEmpty(base);
            if (as.pageTable.level2(base) == 0) {
                long head = k.memory.allocateHuge(FrameTable.ANON);
                if (head >= 0) {
                    k.mapper.mapHuge(as, base, head, Pte.withFrame(entry(0, v, write), head));
                    k.charge(k.costs.minorFaultPs() + k.costs.zeroFillPerPagePs() * Kernel.HUGE_PAGES);
                    as.minorFaults++;
                    k.stats.hugeFaults.increment();
                    return FaultKind.MINOR_HUGE;
                }
            }
        }
        long frame = k.mapper.allocateAnon();
        if (frame < 0) {
            return FaultKind.OOM;
        }
        k.mapper.mapSmall(as, va & -Kernel.PAGE_SIZE, frame, Pte.withFrame(entry(0, v, write), frame));
        k.charge(k.costs.minorFaultPs() + k.costs.zeroFillPerPagePs());
        return counted(as, FaultKind.MINOR);
    }

    private boolean hugeEligible(Vma v, long base) {
        boolean policy = switch (k.config.thp()) {
            case NEVER -> false;
            case MADVISE -> v.has(Vma.HUGEPAGE);
            case ALWAYS -> !v.has(Vma.NOHUGEPAGE);
        };
        return policy && base >= v.start() && base + Kernel.HUGE_SIZE <= v.end();
    }

    /** A present entry for a new private page of {@code v}. */
    static long entry(long keep, Vma v, boolean write) {
        return keep | Pte.PRESENT | Pte.ACCESSED | (v.readable() ? Pte.READABLE : 0)
                | (v.writable() ? Pte.WRITABLE : 0) | (write ? Pte.DIRTY : 0);
    }

    private FaultKind counted(AddressSpace as, FaultKind kind) {
        if (kind == FaultKind.COW) {
            as.cowFaults++;
            k.stats.cowFaults.increment();
        } else {
            as.minorFaults++;
            k.stats.minorFaults.increment();
        }
        return kind;
    }
}
