package org.pagefabric.reg.part;

import org.pagefabric.hw.os.Kernel;

/** How many pages PART's fault tasklet pages in for one faulting page (000 §V, Table I). */
public enum PageIn {
    /** PIO, "Page-In One-Page": only the faulting page. */
    ONE,
    /** PI4, "Page-In 4-Pages": every page of the faulting page's block (16 KB: 4 pages). */
    BLOCK,
    /** PIA, "Page-In All-Pages": every page of the transfer from the faulting one to its end. */
    ALL;

    /**
     * The first page address of the range to page in for a fault at {@code faultVa}.
     *
     * @param messageVa  first address of the transfer's buffer on the faulting node
     * @param block      the block the faulting packet belongs to
     * @param blockBytes bytes per block of the transport
     */
    long rangeStart(long faultVa, long messageVa, int block, int blockBytes) {
        long page = faultVa & ~(Kernel.PAGE_SIZE - 1);
        if (this == BLOCK) {
            return Math.min(page, (messageVa + (long) block * blockBytes) & ~(Kernel.PAGE_SIZE - 1));
        }
        return page;
    }

    /** One past the last byte of the range to page in, page aligned. */
    long rangeEnd(long faultVa, long messageVa, long messageLength, int block, int blockBytes) {
        long pageEnd = (faultVa & ~(Kernel.PAGE_SIZE - 1)) + Kernel.PAGE_SIZE;
        long end = switch (this) {
            case ONE -> pageEnd;
            case BLOCK -> Math.min(messageVa + (long) (block + 1) * blockBytes, messageVa + messageLength);
            case ALL -> messageVa + messageLength;
        };
        return Math.max(pageEnd, (end + Kernel.PAGE_SIZE - 1) & ~(Kernel.PAGE_SIZE - 1));
    }
}
