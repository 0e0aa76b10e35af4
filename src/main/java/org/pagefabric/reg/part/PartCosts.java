package org.pagefabric.reg.part;

import org.pagefabric.config.Profile;
import org.pagefabric.hw.param.CpuParameters;
import org.pagefabric.hw.param.IommuParameters;
import org.pagefabric.hw.param.OsParameters;

/**
 * What PART's software costs, in picoseconds, from a profile.
 *
 * @param smmuHandlerPs the SMMU fault interrupt handler's own run time ({@code iommu.fault.interrupt}:
 *                      fault registers read and cleared, tasklet scheduled); the CPU's interrupt
 *                      delivery and entry ({@code cpu.interrupt}) come on top, charged by the core
 * @param taskletPs     one tasklet run resolving one faulting page ({@code part.tasklet}); each
 *                      further page a run pages in adds its own get_user_pages/put_page kernel time
 * @param emptyPollPs   one NI FIFO register read ({@code cpu.mmio_read}): a run that finds the FIFO
 *                      empty costs one, a run that pages nothing in one per entry it read
 * @param netlinkPs     the Netlink message of a run that pages nothing in ({@code part.tasklet.netlink})
 * @param errIssuePs    user space issuing one Explicit Retransmission Request ({@code part.err.issue})
 * @param touchPresentPs a user touch of a resident page ({@code os.touch.present})
 * @param fifoReads     NI FIFO reads {@code part.tasklet} includes ({@code part.tasklet.fifo_reads})
 */
public record PartCosts(long smmuHandlerPs, long taskletPs, long emptyPollPs, long netlinkPs, long errIssuePs,
        long touchPresentPs, int fifoReads) {
    /** The costs of {@code p}. */
    public static PartCosts of(Profile p) {
        return new PartCosts(p.time(IommuParameters.FAULT_INTERRUPT), p.time(PartDriverParameters.TASKLET),
                p.time(CpuParameters.MMIO_READ), p.time(PartDriverParameters.TASKLET_NETLINK), p.time(PartDriverParameters.ERR_ISSUE),
                p.time(OsParameters.TOUCH_PRESENT), p.intCount(PartDriverParameters.TASKLET_FIFO_READS));
    }
}
