package org.pagefabric.hw.os;

/**
 * Walks a byte range piece by piece, each piece inside one 4 KiB page: the one loop that every
 * byte-level access of the kernel (CPU reads and writes, inspection, comparison) goes through.
 * A piece ends at a page boundary of the range or of a second range walked alongside at the
 * same offsets. Use as {@code for (PageSpans s = new PageSpans(va, vb, len); s.next(); ) {...}}.
 */
final class PageSpans {
    /** Where the first range starts and ends. */
    private final long start;
    private final long end;
    /** How far the second range lies from the first. */
    private final long delta;
    /** The current piece's address in the first range. */
    private long at;
    /** Bytes of the current piece; 0 before the first. */
    private int n;

    /** A walk of {@code [va, va+len)}, and of {@code [vb, vb+len)} alongside (pass {@code va} for one range). */
    PageSpans(long va, long vb, long len) {
        start = va;
        end = va + len;
        delta = vb - va;
        at = va;
    }

    /** Moves to the next piece; false once the range is done. */
    boolean next() {
        at += n;
        if (at >= end) {
            return false;
        }
        n = Math.min(within(at, end - at), within(at + delta, end - at));
        return true;
    }

    /** The current piece's address in the first range. */
    long at() {
        return at;
    }

    /** The current piece's address in the second range. */
    long bt() {
        return at + delta;
    }

    /** Bytes of the current piece. */
    int n() {
        return n;
    }

    /** Bytes of the range before the current piece. */
    long done() {
        return at - start;
    }

    /** The offset of the current piece in its page of the first range. */
    int offset() {
        return (int) (at & (Kernel.PAGE_SIZE - 1));
    }

    /** Bytes from {@code va} to the end of its page, at most {@code remaining}. */
    private static int within(long va, long remaining) {
        return (int) Math.min(remaining, Kernel.PAGE_SIZE - (va & (Kernel.PAGE_SIZE - 1)));
    }
}
