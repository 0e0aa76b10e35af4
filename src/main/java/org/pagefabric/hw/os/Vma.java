package org.pagefabric.hw.os;

/**
 * A virtual memory area: a page-aligned range {@code [start, end)} of one address space with one
 * protection and one set of flags, Linux's {@code vm_area_struct}. Only private anonymous memory
 * is modelled (heap, mmap'd buffers): what RDMA registers and what the seeds page in and out.
 */
public final class Vma {
    /** VM_LOCKED: mlock'd; its pages are never reclaimed. */
    public static final int LOCKED = 1;
    /** madvise(MADV_HUGEPAGE): eligible for transparent huge pages in "madvise" mode. */
    public static final int HUGEPAGE = 1 << 1;
    /** madvise(MADV_NOHUGEPAGE): never transparent huge pages. */
    public static final int NOHUGEPAGE = 1 << 2;
    /** The brk heap. */
    public static final int HEAP = 1 << 3;
    /** VM_DONTCOPY, set by madvise(MADV_DONTFORK): a child of fork gets no mapping here. */
    public static final int DONTCOPY = 1 << 4;

    private long start;
    private long end;
    private int prot;
    private int flags;

    Vma(long start, long end, int prot, int flags) {
        this.start = start;
        this.end = end;
        this.prot = prot;
        this.flags = flags;
    }

    /** First byte. */
    public long start() {
        return start;
    }

    /** One past the last byte. */
    public long end() {
        return end;
    }

    /** Length in bytes. */
    public long length() {
        return end - start;
    }

    /** {@link Prot} bits. */
    public int prot() {
        return prot;
    }

    /** Flags ({@link #LOCKED}, {@link #HUGEPAGE}, ...). */
    public int flags() {
        return flags;
    }

    /** Whether all {@code bits} of the flags are set. */
    public boolean has(int bits) {
        return (flags & bits) == bits;
    }

    /** Whether the protection allows reads. */
    public boolean readable() {
        return (prot & Prot.READ) != 0;
    }

    /** Whether the protection allows writes. */
    public boolean writable() {
        return (prot & Prot.WRITE) != 0;
    }

    /** Whether {@code va} is inside. */
    public boolean contains(long va) {
        return va >= start && va < end;
    }

    void setStart(long start) {
        this.start = start;
    }

    void setEnd(long end) {
        this.end = end;
    }

    void setProt(int prot) {
        this.prot = prot;
    }

    void setFlags(int flags) {
        this.flags = flags;
    }

    Vma copy() {
        return new Vma(start, end, prot, flags);
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "[%#x, %#x) prot=%d flags=%d", start, end, prot, flags);
    }
}
