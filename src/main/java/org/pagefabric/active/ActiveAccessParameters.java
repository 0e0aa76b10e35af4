package org.pagefabric.active;

import org.pagefabric.config.Parameter;

/** Active Access (seed 002): the extended IOMMU's logs and the ways it notifies the CPU. */
public final class ActiveAccessParameters {
    /** Memory access the IOMMU makes to append to an access log. */
    public static final Parameter LOG_ACCESS = Parameter.time("aa.log.access",
            "One memory access the IOMMU makes to append an entry or data to an access log.");
    /** Access to the CPU scratchpad holding a log's head and tail. */
    public static final Parameter SCRATCHPAD_ACCESS = Parameter.time("aa.scratchpad.access",
            "One IOMMU or polling-thread access to the CPU scratchpad holding log pointers.");
    /** Active accesses per interrupt in interrupt mode. */
    public static final Parameter INTERRUPT_BATCH = Parameter.count("aa.interrupt.batch",
            "Active accesses logged per interrupt raised when handlers are interrupt-driven.").positive();
    /** Size of one access log ring. */
    public static final Parameter ACCESS_LOG_SIZE = Parameter.size("aa.access_log.size",
            "Bytes of one access log ring buffer.").positive();
    /** Entries of the IOMMU's access log table. */
    public static final Parameter ACCESS_LOG_TABLE_ENTRIES = Parameter.count("aa.access_log_table.entries",
            "Entries of the IOMMU access log table (one per IOMMU user domain).").positive();
    /** Largest active put or get. */
    public static final Parameter MAX_ACCESS = Parameter.size("aa.max_access",
            "Largest active put or get (one bus transaction).").positive();

    /** Entries of the IOMMU's packet tag buffer. */
    public static final Parameter TAG_BUFFER_ENTRIES = Parameter.count("aa.tag_buffer.entries",
            "Entries of the IOMMU packet tag buffer (accesses in progress: multi-packet puts, gets awaiting replies).")
            .positive();
    /** Entries of the IOMMU's flushing buffer. */
    public static final Parameter FLUSHING_BUFFER_ENTRIES = Parameter.count("aa.flushing_buffer.entries",
            "Entries of the IOMMU flushing buffer (one per registered flushing page).").positive();

    private ActiveAccessParameters() {
    }
}
