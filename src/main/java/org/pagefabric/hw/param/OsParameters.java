package org.pagefabric.hw.param;

import org.pagefabric.config.Parameter;

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

    /** Clearing one page handed to a process. */
    public static final Parameter ZERO_FILL_PER_PAGE = Parameter.time("os.zero_fill.per_page",
            "Clearing one 4 KiB page handed to a process; the part of os.page_fault.minor spent zeroing.");
    /** A fault that reads a page back from swap. */
    public static final Parameter PAGE_FAULT_MAJOR = Parameter.time("os.page_fault.major",
            "A fault that reads one 4 KiB page back from swap, I/O included.");
    /** Writing one page to swap during reclaim. */
    public static final Parameter SWAP_OUT_PER_PAGE = Parameter.time("os.swap_out.per_page",
            "Writing one 4 KiB page to swap during reclaim.");
    /** Examining one page in the reclaim scan. */
    public static final Parameter RECLAIM_SCAN_PER_PAGE = Parameter.time("os.reclaim.scan_per_page",
            "Examining one page in the reclaim clock (reverse-map walk, referenced-bit test).");
    /** Copying one page on a copy-on-write break. */
    public static final Parameter COW_COPY_PER_PAGE = Parameter.time("os.cow_copy.per_page",
            "Copying one 4 KiB page on a copy-on-write break (the fault itself is extra).");
    /** The mmap system call. */
    public static final Parameter MMAP = Parameter.time("os.mmap",
            "An mmap or brk call creating a mapping, no page touched.");
    /** Fixed cost of munmap. */
    public static final Parameter MUNMAP_BASE = Parameter.time("os.munmap.base",
            "Fixed cost of a munmap or madvise(DONTNEED) call.");
    /** Per-page cost of munmap. */
    public static final Parameter MUNMAP_PER_PAGE = Parameter.time("os.munmap.per_page",
            "Cost per present page of munmap (PTE clear, reverse map, free).");
    /** Fixed cost of mprotect. */
    public static final Parameter MPROTECT_BASE = Parameter.time("os.mprotect.base",
            "Fixed cost of an mprotect call.");
    /** Per-page cost of mprotect. */
    public static final Parameter MPROTECT_PER_PAGE = Parameter.time("os.mprotect.per_page",
            "Cost per present page of mprotect (PTE rewrite).");
    /** Migrating one page. */
    public static final Parameter MIGRATE_PER_PAGE = Parameter.time("os.migrate.per_page",
            "Migrating one 4 KiB page: unmap, copy, remap.");
    /** Collapsing 512 pages into one huge page. */
    public static final Parameter THP_COLLAPSE = Parameter.time("os.thp.collapse",
            "khugepaged collapsing 512 base pages into one 2 MiB page, copy included.");
    /** Splitting a huge page. */
    public static final Parameter THP_SPLIT = Parameter.time("os.thp.split",
            "Splitting one 2 MiB page into 512 base-page mappings.");
    /** Transparent huge page mode. */
    public static final Parameter THP = Parameter.choice("os.thp",
            "Transparent huge pages (/sys/kernel/mm/transparent_hugepage/enabled).", "never", "madvise", "always");
    /** Fixed cost of fork. */
    public static final Parameter FORK_BASE = Parameter.time("os.fork.base",
            "Fixed cost of fork: a new mm and copies of the VMAs.");
    /** Per-page cost of fork. */
    public static final Parameter FORK_PER_PAGE = Parameter.time("os.fork.per_page",
            "Cost per present page of fork: copying and write-protecting one page-table entry.");
    /** What fork does to pinned pages: the kernel's behaviour, by era. */
    public static final Parameter FORK_PINNED_PAGES = Parameter.choice("os.fork.pinned_pages",
            "What fork does to a pinned page: early-copy (Linux 5.9+, the child gets a copy at fork) or shared-cow"
                    + " (older kernels: copy-on-write like any page, so a parent's write leaves its registration"
                    + " on the child's page).", "early-copy", "shared-cow");
    /** Flushing a changed range from the CPU TLBs. */
    public static final Parameter TLB_SHOOTDOWN = Parameter.time("os.tlb_shootdown",
            "Flushing a changed range from every CPU TLB that may hold it, inter-processor interrupts included.");
    /** Size of the swap device. */
    public static final Parameter SWAP_SIZE = Parameter.size("os.swap.size",
            "Size of the node's swap device; 0 means no swap (nothing anonymous can be reclaimed).");
    /** RLIMIT_MEMLOCK of a process. */
    public static final Parameter MEMLOCK_LIMIT = Parameter.size("os.memlock_limit",
            "RLIMIT_MEMLOCK of a process: bytes it may lock or pin without CAP_IPC_LOCK.");
    /** vm.max_map_count. */
    public static final Parameter MAX_MAP_COUNT = Parameter.count("os.max_map_count",
            "vm.max_map_count: VMAs a process may have; an mmap, mprotect or madvise that needs more fails with ENOMEM.");
    /** Fixed cost of the mincore system call. */
    public static final Parameter MINCORE_BASE = Parameter.time("os.mincore.base",
            "Fixed cost of a mincore call (system call, mmap lock, VMA lookup).");
    /** Per-page cost of mincore. */
    public static final Parameter MINCORE_PER_PAGE = Parameter.time("os.mincore.per_page",
            "Cost per page of mincore: one page-table lookup and one byte of the residency vector.");
    /** A userfaultfd missing-page fault resolved with UFFDIO_ZEROPAGE, round trip. */
    public static final Parameter USERFAULTFD_FAULT_ZEROPAGE = Parameter.time("os.userfaultfd.fault.zeropage",
            "Round trip of a missing-page fault on a userfaultfd-registered range resolved by a user-space "
                    + "handler thread with UFFDIO_ZEROPAGE: trap, message, handler wake-up and read, ioctl, retry.");
    /** A userfaultfd missing-page fault resolved with UFFDIO_COPY, round trip. */
    public static final Parameter USERFAULTFD_FAULT_COPY = Parameter.time("os.userfaultfd.fault.copy",
            "Round trip of a missing-page fault on a userfaultfd-registered range resolved by a user-space "
                    + "handler thread with UFFDIO_COPY of one 4 KiB page.");
    /** Delay of a userfaultfd REMOVE event after madvise(DONTNEED). */
    public static final Parameter USERFAULTFD_EVENT_REMOVE = Parameter.time("os.userfaultfd.event.remove",
            "Delay from madvise(MADV_DONTNEED) on a userfaultfd-registered range until the monitor thread "
                    + "has read its UFFD_EVENT_REMOVE message (the user-space analog of an MMU-notifier call).");
    /** Delay of a userfaultfd UNMAP event after munmap. */
    public static final Parameter USERFAULTFD_EVENT_UNMAP = Parameter.time("os.userfaultfd.event.unmap",
            "Delay from munmap of a userfaultfd-registered range until the monitor thread has read its "
                    + "UFFD_EVENT_UNMAP message (the unmap itself included).");

    private OsParameters() {
    }
}
