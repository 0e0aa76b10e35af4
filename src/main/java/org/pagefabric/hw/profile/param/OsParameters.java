package org.pagefabric.hw.profile.param;

import org.pagefabric.hw.profile.Parameter;

/** Kernel memory management: faults, pinning, notifiers. */
public final class OsParameters {
    /** System call entry and exit. */
    public static final Parameter SYSCALL = Parameter.time("os.syscall",
            "Entry plus exit of a system call that does no work.");
    /** A CPU access to a non-present anonymous page, trap to return. */
    public static final Parameter PAGE_FAULT_MINOR = Parameter.time("os.page_fault.minor",
            "A CPU access to a non-present anonymous page: trap, allocate and zero a page, map it, return.");
    /** The kernel populating one page for a driver or system call, without a trap. */
    public static final Parameter PAGE_IN_PER_PAGE = Parameter.time("os.page_in.per_page",
            "Kernel populating one non-present page on behalf of a driver or system call (no trap).");
    /** A user access to a page that is already resident. */
    public static final Parameter TOUCH_PRESENT = Parameter.time("os.touch.present",
            "A user read-then-write of the first byte of a resident page (TLB miss and cache miss included).");
    /** Fraction of physical memory that may be pinned. */
    public static final Parameter PINNABLE_FRACTION = Parameter.ratio("os.pinnable_fraction",
            "Fraction of physical memory the kernel lets processes pin (RLIMIT_MEMLOCK and driver limits).");
    /** Fixed cost of a driver pinning a range of resident pages. */
    public static final Parameter PIN_BASE = Parameter.time("os.pin.base",
            "Fixed cost of a driver pinning a range (get_user_pages call, locking, bookkeeping).");
    /** Per-page cost of a driver pinning resident pages. */
    public static final Parameter PIN_PER_PAGE = Parameter.time("os.pin.per_page",
            "Cost per resident page of a driver pin (page lookup and reference).");
    /** Fixed cost of a driver unpinning a range. */
    public static final Parameter UNPIN_BASE = Parameter.time("os.unpin.base",
            "Fixed cost of a driver unpinning a range.");
    /** Per-page cost of a driver unpinning. */
    public static final Parameter UNPIN_PER_PAGE = Parameter.time("os.unpin.per_page",
            "Cost per page of a driver unpin (put_page, dirtying).");
    /** Fixed cost of the mlock system call. */
    public static final Parameter MLOCK_BASE = Parameter.time("os.mlock.base",
            "Fixed cost of an mlock call (system call, VMA split and flags).");
    /** Per-page cost of mlock on a resident page. */
    public static final Parameter MLOCK_PER_PAGE = Parameter.time("os.mlock.per_page",
            "Cost per resident page of mlock; a non-present page also pays os.page_in.per_page.");
    /** Fixed cost of the munlock system call. */
    public static final Parameter MUNLOCK_BASE = Parameter.time("os.munlock.base",
            "Fixed cost of a munlock call.");
    /** Per-page cost of munlock. */
    public static final Parameter MUNLOCK_PER_PAGE = Parameter.time("os.munlock.per_page",
            "Cost per page of munlock.");
    /** Fixed cost of delivering one MMU-notifier invalidation to a subscriber. */
    public static final Parameter MMU_NOTIFIER_INVALIDATE = Parameter.time("os.mmu_notifier.invalidate",
            "Fixed cost of one MMU-notifier invalidation callback, before the subscriber's own work.");

    private OsParameters() {
    }
}
