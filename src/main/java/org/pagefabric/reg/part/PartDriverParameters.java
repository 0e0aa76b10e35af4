package org.pagefabric.reg.part;

import org.pagefabric.config.Parameter;

/**
 * PART's driver (seed 000 §IV): the fault tasklet and explicit retransmission requests. They live
 * with the driver that reads them, and {@link PartProvider} registers them; the NI fault FIFO's size is the hardware's
 * ({@link org.pagefabric.hw.param.PartParameters}).
 */
public final class PartDriverParameters {
    /** One tasklet run resolving one faulting page. */
    public static final Parameter TASKLET = Parameter.time("part.tasklet",
            "One tasklet run resolving one faulting page: NI FIFO reads (part.tasklet.fifo_reads of them),"
            + " get_user_pages/put_page of the page, Netlink to user space. Further pages add the kernel's page-in time.");
    /** The Netlink message of a tasklet run that pages nothing in. */
    public static final Parameter TASKLET_NETLINK = Parameter.time("part.tasklet.netlink",
            "The Netlink message a fault tasklet run sends user space when it pages nothing in itself (its pages came"
            + " in through an earlier run) but has blocks to ask for again; a run that pages in pays part.tasklet,"
            + " which includes its message.");
    /** Issuing an explicit retransmission request from user space. */
    public static final Parameter ERR_ISSUE = Parameter.time("part.err.issue",
            "Issuing an Explicit Retransmission Request from user space to the initiator.");

    /** NI FIFO reads the measured tasklet run included. */
    public static final Parameter TASKLET_FIFO_READS = Parameter.count("part.tasklet.fifo_reads",
            "NI FIFO reads (one register read per entry) included in part.tasklet; a run reads every entry the FIFO"
            + " holds, and pays cpu.mmio_read for each read more or less than these.").positive();

    private PartDriverParameters() {
    }
}
