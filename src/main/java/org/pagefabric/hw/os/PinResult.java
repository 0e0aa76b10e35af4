package org.pagefabric.hw.os;

/**
 * The outcome of get_user_pages: the frames now pinned, one per page from the start address, for
 * the first {@link #pinned()} pages. Like Linux, a call that fails part-way keeps the pins it
 * took and reports how many; {@link #error()} says why it stopped.
 *
 * @param frames      frame numbers of the pinned pages (length = pages requested; unused tail is -1)
 * @param pinned      pages pinned
 * @param error       null if every page was pinned, else EFAULT (no mapping or protection) or
 *                    ENOMEM (out of memory)
 * @param minorFaults pages faulted in as zero-fill (or write-upgraded) on the way
 * @param majorFaults pages read back from swap on the way
 * @param cowBreaks   copy-on-write breaks done for a write pin
 * @param costPs      kernel time in picoseconds, faults included
 */
public record PinResult(long[] frames, int pinned, Errno error, int minorFaults, int majorFaults, int cowBreaks,
        long costPs) {
    /** Whether every requested page was pinned. */
    public boolean complete() {
        return error == null;
    }
}
