package org.pagefabric.comm.rma;

/**
 * What the steps of a {@link DatagramRma} operation cost, picoseconds: the host's side of posting
 * and completing it, and the target NIC's atomic unit and DMA writes.
 *
 * @param postPs       CPU doorbell write plus the NIC fetching the request
 * @param completionPs the NIC writing a completion the CPU then reads
 * @param atomicPs     the target NIC's atomic unit busy with one operation (a DMA read round
 *                     trip to host memory); a get's read of host memory costs the same
 * @param dmaWritePs   a NIC DMA write landing in host memory (posted write across PCIe)
 */
public record DatagramCosts(long postPs, long completionPs, long atomicPs, long dmaWritePs) {
}
