package org.pagefabric.hw.os;

/** /sys/kernel/mm/transparent_hugepage/enabled. */
public enum ThpMode {
    /** No transparent huge pages. */
    NEVER,
    /** Only in VMAs given madvise(MADV_HUGEPAGE). */
    MADVISE,
    /** In every anonymous VMA not given madvise(MADV_NOHUGEPAGE). */
    ALWAYS
}
