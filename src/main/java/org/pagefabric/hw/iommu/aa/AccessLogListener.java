package org.pagefabric.hw.iommu.aa;

/**
 * Who hears that an access log has entries for the CPU: the notification scheme (interrupt,
 * polling, scratchpad hyperthread) of the log's process. Called on the IOMMU's path: must not
 * allocate.
 */
public interface AccessLogListener {
    /** The tail of {@code log} advanced over {@code entries} newly committed entries. */
    void committed(AccessLog log, int entries);

    /** An active flush of {@code log} arrived: its processing should start now. */
    void flushRequested(AccessLog log);
}
