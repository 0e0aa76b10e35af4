package org.pagefabric.hw.os;

import java.util.Arrays;

/**
 * fork of an address space: the child gets copies of the VMAs (without VM_LOCKED, which is not
 * inherited) and of the page-table entries; private writable pages become copy-on-write in both
 * processes (the parent's range is invalidated with reason FORK so that mirrors notice the
 * write-protection), swap entries gain a reference.
 *
 * <p>Pages pinned at fork time are copied for the child at once and stay writable in the parent,
 * as Linux does since 5.9 (page_needs_cow_for_dma): otherwise the parent's next write would move
 * it off the page the device is still using. A pinned huge page is split first. Under
 * {@link ForkPinnedPages#SHARED_COW} pinned pages are shared copy-on-write like the rest, as
 * before 5.9. A VMA marked {@link Vma#DONTCOPY} (MADV_DONTFORK) is left out of the child and its
 * pages keep their entries in the parent.
 */
final class Forker {
    private static final long[] NONE = {};
    private final Kernel k;

    Forker(Kernel kernel) {
        this.k = kernel;
    }

    ForkResult fork(AddressSpace parent) {
        long mark = k.spent;
        k.charge(k.costs.forkBasePs());
        k.stats.forks.increment();
        AddressSpace child = k.createProcess(parent.memlockLimitPages, parent.capIpcLock);
        child.brkStart = parent.brkStart;
        child.brk = parent.brk;
        long[] entries = {0};
        long copies = 0;
        boolean earlyCopy = k.config.forkPinned() == ForkPinnedPages.EARLY_COPY;
        for (Vma v : parent.vmas.all()) {
            if (v.has(Vma.DONTCOPY)) {
                continue;
            }
            Vma cv = v.copy();
            cv.setFlags(cv.flags() & ~Vma.LOCKED);
            child.vmas.insert(cv);
            if (earlyCopy) {
                splitPinnedHugePages(parent, v);
            }
            long[] pinnedVas = earlyCopy ? pinnedPages(parent, v) : NONE;
            long[] copyFrames = new long[pinnedVas.length];
            for (int i = 0; i < pinnedVas.length; i++) {
                long copy = k.mapper.allocateAnon();
                if (copy < 0) {
                    for (int j = 0; j < i; j++) {
                        k.memory.free(copyFrames[j]);
                    }
                    k.exit(child);
                    throw new OsException(Errno.ENOMEM, "fork: no frame to copy a pinned page for the child",
                            k.spent - mark);
                }
                long pte = parent.pageTable.leaf(pinnedVas[i]);
                k.memory.backing().copyPage(Kernel.frameOf(pte, pinnedVas[i]), copy);
                copyFrames[i] = copy;
            }
            copies += pinnedVas.length;
            boolean protect = v.writable();
            if (protect) {
                k.mapper.invalidateStart(parent, v.start(), v.end(), InvalidationReason.FORK);
            }
            parent.pageTable.forEach(v.start(), v.end(), (va, table, index, huge) -> {
                long pte = table[index];
                entries[0]++;
                if ((pte & Pte.PRESENT) == 0) {
                    if ((pte & Pte.SWAPPED) != 0) {
                        child.pageTable.setLeaf(va, Pte.withFrame(Pte.SWAPPED, Pte.frame(pte)));
                        k.swap.duplicate(Pte.frame(pte));
                        child.swapPages++;
                    }
                    return;
                }
                int copied = huge ? -1 : Arrays.binarySearch(pinnedVas, va);
                if (copied >= 0) {
                    k.mapper.mapSmall(child, va, copyFrames[copied],
                            Pte.withFrame(FaultHandler.entry(0, cv, true), copyFrames[copied]));
                    return;
                }
                if (protect) {
                    pte = (pte & ~Pte.WRITABLE) | Pte.COW;
                    table[index] = pte;
                }
                long childPte = pte & Kernel.INHERITED_BITS & ~Pte.HUGE;
                if (huge) {
                    k.mapper.mapHuge(child, va, Pte.frame(pte), Pte.withFrame(childPte, Pte.frame(pte)));
                } else {
                    k.mapper.mapSmall(child, va, Pte.frame(pte), Pte.withFrame(childPte, Pte.frame(pte)));
                }
            });
            if (protect) {
                k.mapper.invalidateEnd(parent, v.start(), v.end(), InvalidationReason.FORK);
            }
        }
        k.charge(k.costs.forkPerPagePs() * entries[0] + k.costs.cowCopyPerPagePs() * copies);
        return new ForkResult(child, k.spent - mark);
    }

    private void splitPinnedHugePages(AddressSpace as, Vma v) {
        long[][] box = {new long[0]};
        int[] n = {0};
        as.pageTable.forEach(v.start(), v.end(), (va, table, index, huge) -> {
            long pte = table[index];
            if (!huge || (pte & Pte.PRESENT) == 0) {
                return;
            }
            long head = Pte.frame(pte);
            for (int i = 0; i < Kernel.HUGE_PAGES; i++) {
                if (k.frames.pinCount(head + i) > 0) {
                    if (n[0] == box[0].length) {
                        box[0] = Arrays.copyOf(box[0], Math.max(4, n[0] * 2));
                    }
                    box[0][n[0]++] = head;
                    return;
                }
            }
        });
        for (int i = 0; i < n[0]; i++) {
            k.mapper.splitHugePage(box[0][i]);
        }
    }

    /** Addresses of the present, pinned 4 KiB pages of a VMA, ascending. */
    private long[] pinnedPages(AddressSpace as, Vma v) {
        long[][] box = {new long[0]};
        int[] n = {0};
        as.pageTable.forEach(v.start(), v.end(), (va, table, index, huge) -> {
            long pte = table[index];
            if (huge || (pte & Pte.PRESENT) == 0 || k.frames.pinCount(Pte.frame(pte)) == 0) {
                return;
            }
            if (n[0] == box[0].length) {
                box[0] = Arrays.copyOf(box[0], Math.max(4, n[0] * 2));
            }
            box[0][n[0]++] = va;
        });
        return Arrays.copyOf(box[0], n[0]);
    }
}
