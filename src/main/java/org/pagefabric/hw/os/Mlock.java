package org.pagefabric.hw.os;

/**
 * mlock and munlock: VM_LOCKED on the VMAs of a range, charged to locked_vm against
 * RLIMIT_MEMLOCK (ENOMEM over it, unless CAP_IPC_LOCK), and the range populated. Reclaim never
 * takes a page mapped in a locked VMA. Unlike pins, mlock keeps a page resident but lets it move
 * (migration, collapse), as on Linux.
 */
final class Mlock {
    private final Kernel k;

    Mlock(Kernel kernel) {
        this.k = kernel;
    }

    long lock(AddressSpace as, long addr, long length) {
        long mark = k.spent;
        if (length < 0) {
            throw new OsException(Errno.EINVAL, "mlock of negative length " + length, 0);
        }
        k.charge(k.costs.mlockBasePs());
        if (length == 0) {
            return k.spent - mark;
        }
        long start = addr & -Kernel.PAGE_SIZE;
        long end = Kernel.pageUp(addr + length);
        if (!as.vmas.covers(start, end)) {
            throw new OsException(Errno.ENOMEM, "mlock of a range with unmapped holes", k.spent - mark);
        }
        long newly = 0;
        for (Vma v : as.vmas.overlapping(start, end)) {
            if (!v.has(Vma.LOCKED)) {
                newly += (Math.min(end, v.end()) - Math.max(start, v.start())) / Kernel.PAGE_SIZE;
            }
        }
        if (!as.capIpcLock && as.lockedPages + newly > as.memlockLimitPages) {
            throw new OsException(Errno.ENOMEM, "locked_vm " + as.lockedPages + " + " + newly
                    + " pages is over RLIMIT_MEMLOCK " + as.memlockLimitPages, k.spent - mark);
        }
        // a huge page must not straddle a VMA boundary
        k.mapper.splitHugeAt(as, start);
        k.mapper.splitHugeAt(as, end);
        as.vmas.splitAt(start);
        as.vmas.splitAt(end);
        for (Vma v : as.vmas.overlapping(start, end)) {
            v.setFlags(v.flags() | Vma.LOCKED);
        }
        as.lockedPages += newly;
        k.mapper.populate(as, start, end);
        k.charge(k.costs.mlockPerPagePs() * ((end - start) / Kernel.PAGE_SIZE));
        return k.spent - mark;
    }

    long unlock(AddressSpace as, long addr, long length) {
        long mark = k.spent;
        if (length < 0) {
            throw new OsException(Errno.EINVAL, "munlock of negative length " + length, 0);
        }
        k.charge(k.costs.munlockBasePs());
        if (length == 0) {
            return k.spent - mark;
        }
        long start = addr & -Kernel.PAGE_SIZE;
        long end = Kernel.pageUp(addr + length);
        if (!as.vmas.covers(start, end)) {
            throw new OsException(Errno.ENOMEM, "munlock of a range with unmapped holes", k.spent - mark);
        }
        k.mapper.splitHugeAt(as, start);
        k.mapper.splitHugeAt(as, end);
        as.vmas.splitAt(start);
        as.vmas.splitAt(end);
        for (Vma v : as.vmas.overlapping(start, end)) {
            if (v.has(Vma.LOCKED)) {
                as.lockedPages -= v.length() / Kernel.PAGE_SIZE;
                v.setFlags(v.flags() & ~Vma.LOCKED);
            }
        }
        k.charge(k.costs.munlockPerPagePs() * ((end - start) / Kernel.PAGE_SIZE));
        return k.spent - mark;
    }
}
