package org.pagefabric.hw.os;

/**
 * Why a range of mappings is being invalidated: what an MMU notifier callback learns (Linux's
 * {@code enum mmu_notifier_event}, with the causes the seeds care about kept apart).
 */
public enum InvalidationReason {
    /** munmap, or brk shrinking the heap (MMU_NOTIFY_UNMAP). */
    UNMAP,
    /** madvise(MADV_DONTNEED): pages dropped, mapping kept (MMU_NOTIFY_CLEAR). */
    DONTNEED,
    /** Reclaim swapping pages out. */
    RECLAIM,
    /** Page migration to another frame (MMU_NOTIFY_MIGRATE). */
    MIGRATE,
    /** khugepaged replacing 512 pages by one 2 MiB page. */
    HUGE_COLLAPSE,
    /** A 2 MiB page split into 512 pages. */
    HUGE_SPLIT,
    /** A copy-on-write break replacing a shared page by a private copy. */
    COW,
    /** fork write-protecting the parent's pages for copy-on-write. */
    FORK,
    /** mprotect changing protections (MMU_NOTIFY_PROTECTION_VMA). */
    PROTECTION,
    /** The address space is torn down (exit; MMU_NOTIFY_RELEASE). */
    RELEASE
}
