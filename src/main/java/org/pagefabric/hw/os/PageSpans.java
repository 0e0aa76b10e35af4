package org.pagefabric.hw.os;

/**
 * Walks a byte range piece by piece, each piece inside one 4 KiB page: the one loop that every
 * byte-level access of the kernel (CPU reads and writes, inspection, comparison) goes through.
 */
final class PageSpans {
    private PageSpans() {
    }

    /** Sees one piece of a range. */
    @FunctionalInterface
    interface Piece {
        /**
         * The piece of {@code n} bytes at {@code at} (and at {@code bt} in a second range walked
         * alongside), {@code done} bytes from the start of the range.
         *
         * @return whether to go on to the next piece
         */
        boolean visit(long at, long bt, int n, long done);
    }

    /**
     * Calls {@code p} for each piece of {@code [va, va+len)} in address order, a piece ending at
     * a page boundary of {@code va} or of {@code vb} (the same offsets of a second range; pass
     * {@code va} for a single range), and stops at the first piece it refuses.
     *
     * @return whether every piece was accepted
     */
    static boolean walk(long va, long vb, long len, Piece p) {
        for (long done = 0; done < len; ) {
            long at = va + done;
            long bt = vb + done;
            int n = Math.min(within(at, len - done), within(bt, len - done));
            if (!p.visit(at, bt, n, done)) {
                return false;
            }
            done += n;
        }
        return true;
    }

    /** Bytes from {@code va} to the end of its page, at most {@code remaining}. */
    private static int within(long va, long remaining) {
        return (int) Math.min(remaining, Kernel.PAGE_SIZE - (va & (Kernel.PAGE_SIZE - 1)));
    }

    /** The offset of {@code va} in its page. */
    static int offset(long va) {
        return (int) (va & (Kernel.PAGE_SIZE - 1));
    }
}
