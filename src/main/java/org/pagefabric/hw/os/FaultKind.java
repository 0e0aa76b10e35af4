package org.pagefabric.hw.os;

/** How a CPU access (or a get_user_pages page) was resolved. */
public enum FaultKind {
    /** The page was present with the needed permission: no fault. */
    NONE,
    /** Minor fault: a zero-filled 4 KiB page, or write permission restored on an exclusive page. */
    MINOR,
    /** Minor fault that mapped a zero-filled 2 MiB transparent huge page. */
    MINOR_HUGE,
    /** Major fault: the page was read back from swap. */
    MAJOR,
    /** Write to a copy-on-write page: copied, or reused if no one else maps it any more. */
    COW,
    /** No VMA covers the address (SIGSEGV, SEGV_MAPERR). */
    SEGV_MAPERR,
    /** The VMA's protection forbids the access (SIGSEGV, SEGV_ACCERR). */
    SEGV_ACCERR,
    /** No frame could be found even after reclaim (the OOM killer's case). */
    OOM;

    /** Whether the access can proceed. */
    public boolean resolved() {
        return this != SEGV_MAPERR && this != SEGV_ACCERR && this != OOM;
    }
}
