package org.pagefabric.workload.rma;

import java.util.List;
import org.pagefabric.comm.Messages;
import org.pagefabric.comm.rma.DatagramCosts;
import org.pagefabric.comm.rma.DatagramRma;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.Profile;
import org.pagefabric.hw.param.CpuParameters;
import org.pagefabric.hw.param.MemoryParameters;
import org.pagefabric.hw.param.NicParameters;
import org.pagefabric.hw.param.PcieParameters;

/**
 * The costs of 002's applications on their emulated RMA ({@link DatagramRma}) and of their
 * schemes, all read from the profile (picoseconds): the host side of posting and completing an
 * operation, the NIC's atomic unit and DMA writes, memory accesses of handlers, polling and
 * interrupts, and the active-message runtime.
 *
 * @param postPs          CPU doorbell write plus the NIC fetching the request
 * @param completionPs    the NIC writing a completion the CPU then reads
 * @param atomicPs        the target NIC's atomic unit busy with one operation: a DMA read round trip to host memory
 * @param dmaWritePs      a NIC DMA write landing in host memory (posted write across PCIe)
 * @param memoryPs        one host memory access
 * @param pollPs          one poll of a receive queue or flag
 * @param interruptPs     one interrupt: delivery, entry and handler dispatch
 * @param pollIntervalPs  AM polling interval (and AM-Exp's shortest)
 * @param backoffMaxPs    AM-Exp's longest interval
 * @param interruptBatch  messages per interrupt in AM-Ints
 * @param amReceivePs     the active-message runtime's own work per message received (header, dispatch, payload
 *                        copy, slot release), beyond reading the message
 */
public record RmaCosts(long postPs, long completionPs, long atomicPs, long dmaWritePs, long memoryPs, long pollPs,
                       long interruptPs, long pollIntervalPs, long backoffMaxPs, long interruptBatch,
                       long amReceivePs) {
    /** The profile parameters {@link #of} reads. */
    public static final List<Parameter> PARAMETERS = List.of(NicParameters.DOORBELL, NicParameters.WQE_PROCESSING,
            NicParameters.COMPLETION, NicParameters.DMA_READ_START, PcieParameters.LATENCY, MemoryParameters.LATENCY,
            CpuParameters.POLL_ITERATION, CpuParameters.INTERRUPT, Messages.POLL_INTERVAL,
            Messages.BACKOFF_MAX_INTERVAL, Messages.INTERRUPT_BATCH,
            Messages.RECEIVE_OVERHEAD);

    /**
     * What an active-message handler's core spends to take one message out of its receive buffer
     * before the handler's own work: reading the message (one memory access: the NIC wrote it, so
     * it is not in any cache) and the runtime's receive path (002 §5.2.1: AM "extract[s] the
     * payload", which Active Access leaves to the IOMMU).
     */
    public long amExtractPs() {
        return memoryPs + amReceivePs;
    }

    /** The costs a {@link DatagramRma} carrying these applications' operations charges. */
    public DatagramCosts datagram() {
        return new DatagramCosts(postPs, completionPs, atomicPs, dmaWritePs);
    }

    /** The costs of {@code p}. */
    public static RmaCosts of(Profile p) {
        long wqe = p.time(NicParameters.WQE_PROCESSING);
        return new RmaCosts(p.time(NicParameters.DOORBELL) + wqe, p.time(NicParameters.COMPLETION),
                wqe + p.time(NicParameters.DMA_READ_START), wqe + p.time(PcieParameters.LATENCY),
                p.time(MemoryParameters.LATENCY), p.time(CpuParameters.POLL_ITERATION),
                p.time(CpuParameters.INTERRUPT), p.time(Messages.POLL_INTERVAL),
                p.time(Messages.BACKOFF_MAX_INTERVAL), p.count(Messages.INTERRUPT_BATCH),
                p.time(Messages.RECEIVE_OVERHEAD));
    }
}
