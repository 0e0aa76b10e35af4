package org.pagefabric.reg.part;

import org.pagefabric.hw.profile.Profile;
import org.pagefabric.hw.profile.param.CpuParameters;
import org.pagefabric.hw.profile.param.IommuParameters;
import org.pagefabric.hw.profile.param.OsParameters;
import org.pagefabric.hw.profile.param.PartParameters;

/**
 * What PART's software costs, in picoseconds, from a profile.
 *
 * @param smmuHandlerPs the SMMU fault interrupt handler's own work: {@code iommu.fault.interrupt}
 *                      is the time from the fault to the end of the handler, of which the
 *                      CPU's interrupt latency ({@code cpu.interrupt}, charged by the core) is
 *                      a part; the rest, at least 0
 * @param taskletPs     one tasklet run resolving one faulting page ({@code part.tasklet}); each
 *                      further page a run pages in adds its own get_user_pages/put_page kernel time
 * @param emptyPollPs   a tasklet run that finds the NI FIFO empty: one register read ({@code cpu.mmio_read})
 * @param errIssuePs    user space issuing one Explicit Retransmission Request ({@code part.err.issue})
 * @param touchPresentPs a user touch of a resident page ({@code os.touch.present})
 * @param fifoReads     NI FIFO entries one tasklet run reads at most ({@code part.tasklet.fifo_reads})
 */
public record PartCosts(long smmuHandlerPs, long taskletPs, long emptyPollPs, long errIssuePs, long touchPresentPs,
        int fifoReads) {
    /** The costs of {@code p}. */
    public static PartCosts of(Profile p) {
        long handler = Math.max(0, p.time(IommuParameters.FAULT_INTERRUPT) - p.time(CpuParameters.INTERRUPT));
        return new PartCosts(handler, p.time(PartParameters.TASKLET), p.time(CpuParameters.MMIO_READ),
                p.time(PartParameters.ERR_ISSUE), p.time(OsParameters.TOUCH_PRESENT),
                p.intCount(PartParameters.TASKLET_FIFO_READS));
    }
}
