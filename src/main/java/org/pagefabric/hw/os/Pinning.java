package org.pagefabric.hw.os;

import java.util.Arrays;
import org.pagefabric.hw.mem.FrameTable;

/**
 * get_user_pages with FOLL_PIN and its inverse: what a registering driver (or PART's fault
 * tasklet) uses to make pages resident and keep them where they are. A pin is a per-frame count;
 * a pinned frame is never reclaimed, migrated, collapsed or freed, even after munmap (the device
 * may still DMA into it), until the last put_page. Separately, pinned_vm accounting against
 * RLIMIT_MEMLOCK, which Linux leaves to the driver (ib_umem_get charges it).
 */
final class Pinning {
    private final Kernel k;

    Pinning(Kernel kernel) {
        this.k = kernel;
    }

    PinResult getUserPages(AddressSpace as, long va, int npages, boolean write) {
        k.checkAlive(as);
        if (npages <= 0) {
            throw new IllegalArgumentException("get_user_pages of " + npages + " pages");
        }
        long mark = k.spent;
        k.charge(k.costs.gupBasePs());
        long[] out = new long[npages];
        Arrays.fill(out, -1);
        long base = va & -Kernel.PAGE_SIZE;
        int minor = 0;
        int major = 0;
        int cow = 0;
        Errno error = null;
        int pinned = 0;
        long need = Pte.PRESENT | (write ? Pte.WRITABLE : Pte.READABLE);
        for (; pinned < npages; pinned++) {
            long at = base + pinned * Kernel.PAGE_SIZE;
            long pte = as.pageTable.leaf(at);
            if ((pte & need) != need) {
                // FOLL_WRITE breaks COW before pinning, so the pin is on this process's own copy
                Fault f = k.faults.access(as, at, write);
                switch (f.kind()) {
                    case MINOR, MINOR_HUGE -> minor++;
                    case MAJOR -> major++;
                    case COW -> cow++;
                    default -> {
                    }
                }
                if (!f.resolved()) {
                    error = f.kind() == FaultKind.OOM ? Errno.ENOMEM : Errno.EFAULT;
                    break;
                }
                pte = as.pageTable.leaf(at);
            }
            long frame = Kernel.frameOf(pte, at);
            k.frames.addPinCount(frame, 1);
            if (k.host != null) {
                // pinned in both stages: the host frame under a guest pin must not move either
                k.charge(k.host.pin(frame));
            }
            out[pinned] = frame;
        }
        k.charge(k.costs.gupPerPagePs() * pinned);
        as.pins += pinned;
        k.stats.pins.add(pinned);
        return new PinResult(out, pinned, error, minor, major, cow, k.spent - mark);
    }

    long putPage(long frame) {
        if (!k.frames.has(frame, FrameTable.ALLOCATED)) {
            throw new IllegalStateException("put_page on free frame " + frame);
        }
        k.frames.addPinCount(frame, -1);
        if (k.host != null) {
            k.host.unpin(frame);
        }
        k.stats.unpins.increment();
        k.mapper.freeIfUnused(frame);
        k.charge(k.costs.putPagePerPagePs());
        return k.costs.putPagePerPagePs();
    }

    void charge(AddressSpace as, long pages) {
        if (pages < 0) {
            throw new IllegalArgumentException("cannot charge " + pages + " pinned pages");
        }
        if (!as.capIpcLock && as.pinnedPages + pages > as.memlockLimitPages) {
            throw new OsException(Errno.ENOMEM, "pinned_vm " + as.pinnedPages + " + " + pages
                    + " pages is over RLIMIT_MEMLOCK " + as.memlockLimitPages, 0);
        }
        as.pinnedPages += pages;
    }

    void uncharge(AddressSpace as, long pages) {
        if (pages < 0 || pages > as.pinnedPages) {
            throw new IllegalArgumentException("cannot uncharge " + pages + " of " + as.pinnedPages + " pinned pages");
        }
        as.pinnedPages -= pages;
    }
}
