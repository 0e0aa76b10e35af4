package org.pagefabric.hw.os;

/** madvise advice the model honours. */
public enum Advice {
    /** MADV_DONTNEED: drop the pages; the range reads as zeros afterwards. */
    DONTNEED,
    /** MADV_HUGEPAGE: allow transparent huge pages in "madvise" mode. */
    HUGEPAGE,
    /** MADV_NOHUGEPAGE: never transparent huge pages here. */
    NOHUGEPAGE,
    /**
     * MADV_DONTFORK: a child created by fork has no mapping here (it faults), and the parent's
     * pages are not made copy-on-write; what libibverbs' ibv_fork_init has ibv_reg_mr do to
     * every registered range.
     */
    DONTFORK,
    /** MADV_DOFORK: undoes {@link #DONTFORK}. */
    DOFORK
}
