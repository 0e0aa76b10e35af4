package org.pagefabric.active;

import org.pagefabric.config.Profile;

/**
 * The costs and sizes of Active Access from a profile.
 *
 * @param logAccessPs        one memory access to a log (IOMMU append, CPU read of an entry or the tail)
 * @param scratchpadAccessPs one access to the CPU scratchpad holding a log's pointers
 * @param interruptBatch     entries per interrupt in interrupt mode
 * @param logBytes           bytes of one access log ring
 * @param tableEntries       entries of the access log table
 * @param maxAccessBytes     largest active access
 * @param tagEntries         entries of the packet tag buffer
 * @param flushEntries       entries of the flushing buffer
 */
public record ActiveCosts(long logAccessPs, long scratchpadAccessPs, int interruptBatch, int logBytes,
        int tableEntries, int maxAccessBytes, int tagEntries, int flushEntries) {
    /** Reads the {@code aa.*} parameters. */
    public static ActiveCosts of(Profile p) {
        return new ActiveCosts(p.time(ActiveAccessParameters.LOG_ACCESS), p.time(ActiveAccessParameters.SCRATCHPAD_ACCESS),
                (int) p.count(ActiveAccessParameters.INTERRUPT_BATCH), (int) p.size(ActiveAccessParameters.ACCESS_LOG_SIZE),
                (int) p.count(ActiveAccessParameters.ACCESS_LOG_TABLE_ENTRIES),
                (int) p.size(ActiveAccessParameters.MAX_ACCESS), (int) p.count(ActiveAccessParameters.TAG_BUFFER_ENTRIES),
                (int) p.count(ActiveAccessParameters.FLUSHING_BUFFER_ENTRIES));
    }
}
