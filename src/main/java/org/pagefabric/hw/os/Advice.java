package org.pagefabric.hw.os;

/** madvise advice the model honours. */
public enum Advice {
    /** MADV_DONTNEED: drop the pages; the range reads as zeros afterwards. */
    DONTNEED,
    /** MADV_HUGEPAGE: allow transparent huge pages in "madvise" mode. */
    HUGEPAGE,
    /** MADV_NOHUGEPAGE: never transparent huge pages here. */
    NOHUGEPAGE,
    /** MADV_DONTFORK: set VM_DONTCOPY, what libibverbs does to a registered range after ibv_fork_init. */
    DONTFORK,
    /** MADV_DOFORK: clear VM_DONTCOPY (ibv_dereg_mr's undo of {@link #DONTFORK}). */
    DOFORK
}
