package org.pagefabric.hw.os;

/** madvise advice the model honours. */
public enum Advice {
    /** MADV_DONTNEED: drop the pages; the range reads as zeros afterwards. */
    DONTNEED,
    /** MADV_HUGEPAGE: allow transparent huge pages in "madvise" mode. */
    HUGEPAGE,
    /** MADV_NOHUGEPAGE: never transparent huge pages here. */
    NOHUGEPAGE
}
