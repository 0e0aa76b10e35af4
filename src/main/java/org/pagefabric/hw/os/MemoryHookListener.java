package org.pagefabric.hw.os;

/**
 * Receives the events of intercepted memory calls, like a UCX memory hook (UCM) subscriber:
 * {@link #unmapped} before memory is given back to the kernel, {@link #mapped} after new memory
 * arrives. A registration cache invalidates its entries over an unmapped range.
 */
public interface MemoryHookListener {
    /** The intercepted calls. */
    enum Call {
        /** mmap. */
        MMAP,
        /** munmap. */
        MUNMAP,
        /** brk (sbrk) moving the heap's end. */
        BRK,
        /** madvise(MADV_DONTNEED). */
        MADVISE
    }

    /** {@code [start, start+length)} is about to stop holding the application's data. */
    void unmapped(Call call, long start, long length);

    /** {@code [start, start+length)} was just mapped; nothing by default. */
    default void mapped(Call call, long start, long length) {
    }
}
