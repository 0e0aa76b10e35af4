package org.pagefabric.hw.os;

/** The Linux error numbers the memory-management calls return. */
public enum Errno {
    /** Out of memory, or over RLIMIT_MEMLOCK, or a range not fully mapped (mlock, mprotect). */
    ENOMEM,
    /** Bad address: no mapping, or an access its protection forbids (the SIGSEGV case). */
    EFAULT,
    /** Invalid argument: unaligned address, zero length, address out of range. */
    EINVAL,
    /** The page is busy: pinned pages cannot be migrated, collapsed or reclaimed. */
    EBUSY,
    /** Try again: the operation found nothing it could do now (no huge page free, swap full). */
    EAGAIN
}
