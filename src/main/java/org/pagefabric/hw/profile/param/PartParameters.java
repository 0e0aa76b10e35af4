package org.pagefabric.hw.profile.param;

import org.pagefabric.hw.profile.Parameter;

/** PART (seed 000): the co-processor, the fault tasklet and explicit retransmission requests. */
public final class PartParameters {
    /** Time the RDMA co-processor adds to segment and issue one block. */
    public static final Parameter COPROCESSOR_BLOCK = Parameter.time("part.coprocessor.block",
            "Time the RDMA co-processor adds to segment a transfer and issue one block to the engine.");
    /** Entries of the NI FIFO that logs failed writes for the fault handler. */
    public static final Parameter NACK_FIFO_ENTRIES = Parameter.count("part.nack_fifo.entries",
            "Entries of the NI FIFO that logs failed (NACKed) writes for the fault tasklet.").positive();
    /** One tasklet run resolving one faulting page. */
    public static final Parameter TASKLET = Parameter.time("part.tasklet",
            "One tasklet run resolving one faulting page: NI FIFO reads, get_user_pages/put_page, Netlink to user space.");
    /** Issuing an explicit retransmission request from user space. */
    public static final Parameter ERR_ISSUE = Parameter.time("part.err.issue",
            "Issuing an Explicit Retransmission Request from user space to the initiator.");

    /** Entries one tasklet run reads from the NI FIFO at most. */
    public static final Parameter TASKLET_FIFO_READS = Parameter.count("part.tasklet.fifo_reads",
            "NI FIFO entries one fault tasklet run reads at most (one register read each); entries left over run the"
            + " tasklet again.").positive();

    private PartParameters() {
    }
}
