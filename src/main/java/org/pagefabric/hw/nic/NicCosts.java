package org.pagefabric.hw.nic;

/**
 * What the NIC's own work costs, in picoseconds. PCIe transfer costs come from the PCIe link;
 * these are the NIC's processing steps.
 *
 * @param doorbellPs       from the application's doorbell write until the NIC starts on the request
 *                         (an MMIO write across PCIe)
 * @param wqeProcessingPs  fetching and decoding a work request and starting its message
 *                         (PART: the R5 co-processor's per-block work, 000 §III-A)
 * @param dmaReadStartPs   until the first payload bytes arrive from host memory (a PCIe read)
 * @param completionPs     writing a completion entry to host memory
 * @param translationMissPs fetching a translation entry the NIC's cache lacks (a PCIe read)
 */
public record NicCosts(long doorbellPs, long wqeProcessingPs, long dmaReadStartPs, long completionPs,
                       long translationMissPs) {
    /** Validates that no cost is negative. */
    public NicCosts {
        if (doorbellPs < 0 || wqeProcessingPs < 0 || dmaReadStartPs < 0 || completionPs < 0 || translationMissPs < 0) {
            throw new IllegalArgumentException("NIC costs must not be negative");
        }
    }
}
