package org.pagefabric.hw.os;

/**
 * What the kernel's memory-management operations cost, every field in picoseconds of CPU time.
 * The kernel model only adds these up and returns the sum with each operation's outcome; the CPU
 * model charges that time to a core. Values come from a profile with their provenance (a seed's
 * section, or a measurement from {@code calibrate}); none are written in model code.
 *
 * @param minorFaultPs          anonymous page fault resolved without I/O (trap, VMA lookup, page
 *                              table update, return), excluding the zero-fill and any copy
 * @param zeroFillPerPagePs     clearing one 4 KiB page handed to a process
 * @param majorFaultPs          fault that reads one 4 KiB page back from swap, I/O included
 * @param swapOutPerPagePs      writing one 4 KiB page to swap during reclaim
 * @param reclaimScanPerPagePs  examining one page in the reclaim clock (referenced check)
 * @param cowCopyPerPagePs      copy-on-write break: copying one 4 KiB page (the fault itself is
 *                              {@code minorFaultPs})
 * @param gupBasePs             get_user_pages call overhead (syscall or driver entry, mm lock)
 * @param gupPerPagePs          get_user_pages per page already present (walk, reference, pin)
 * @param putPagePerPagePs      put_page/unpin_user_page per page
 * @param mlockBasePs           mlock call overhead
 * @param mlockPerPagePs        mlock per page (VMA flagging, LRU move), faults excluded
 * @param munlockBasePs         munlock call overhead
 * @param munlockPerPagePs      munlock per page
 * @param mmapPs                mmap/brk call (VMA creation), no page touched
 * @param munmapBasePs          munmap/madvise(DONTNEED) call overhead
 * @param munmapPerPagePs       munmap per present page (PTE clear, rmap, free)
 * @param mprotectBasePs        mprotect call overhead
 * @param mprotectPerPagePs     mprotect per present page
 * @param migratePerPagePs      migrating one 4 KiB page (unmap, copy, remap)
 * @param thpCollapsePs         khugepaged collapsing 512 pages into one 2 MiB page, copy included
 * @param thpSplitPs            splitting one 2 MiB page into 512 mappings
 * @param forkBasePs            fork: new mm, VMA copies
 * @param forkPerPagePs         fork: copying one page-table entry (write-protecting it)
 * @param notifierInvalidatePs  one MMU interval notifier callback (driver zaps its translation)
 * @param tlbShootdownPs        flushing a changed range from the CPU TLBs (IPIs included)
 */
public record OsCosts(
        long minorFaultPs,
        long zeroFillPerPagePs,
        long majorFaultPs,
        long swapOutPerPagePs,
        long reclaimScanPerPagePs,
        long cowCopyPerPagePs,
        long gupBasePs,
        long gupPerPagePs,
        long putPagePerPagePs,
        long mlockBasePs,
        long mlockPerPagePs,
        long munlockBasePs,
        long munlockPerPagePs,
        long mmapPs,
        long munmapBasePs,
        long munmapPerPagePs,
        long mprotectBasePs,
        long mprotectPerPagePs,
        long migratePerPagePs,
        long thpCollapsePs,
        long thpSplitPs,
        long forkBasePs,
        long forkPerPagePs,
        long notifierInvalidatePs,
        long tlbShootdownPs) {

    /** Rejects negative costs, naming the field. */
    public OsCosts {
        long[] v = {minorFaultPs, zeroFillPerPagePs, majorFaultPs, swapOutPerPagePs, reclaimScanPerPagePs,
            cowCopyPerPagePs, gupBasePs, gupPerPagePs, putPagePerPagePs, mlockBasePs, mlockPerPagePs,
            munlockBasePs, munlockPerPagePs, mmapPs, munmapBasePs, munmapPerPagePs, mprotectBasePs,
            mprotectPerPagePs, migratePerPagePs, thpCollapsePs, thpSplitPs, forkBasePs, forkPerPagePs,
            notifierInvalidatePs, tlbShootdownPs};
        for (int i = 0; i < v.length; i++) {
            if (v[i] < 0) {
                throw new IllegalArgumentException("OsCosts." + OsCosts.class.getRecordComponents()[i].getName()
                        + " = " + v[i] + " ps: a cost cannot be negative");
            }
        }
    }
}
