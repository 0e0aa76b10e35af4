package org.pagefabric.hw.iommu;

/**
 * The costs of an IOMMU, in picoseconds. IOTLB lookup costs live in each
 * {@link IotlbLevelConfig}.
 *
 * @param processingPs    internal processing of every translation request
 * @param walkAccessPs    one memory access of a page-table walk, charged per level read
 * @param contextFetchPs  fetching a domain's context (root and context entries) when the
 *                        context cache misses, or on every request if there is none
 * @param faultLogWritePs writing one fault log entry to memory
 * @param invalidationPs  one invalidation command, from submission to its completion wait
 */
public record IommuCosts(long processingPs, long walkAccessPs, long contextFetchPs, long faultLogWritePs,
        long invalidationPs) {
    /** Validates that no cost is negative. */
    public IommuCosts {
        if (processingPs < 0 || walkAccessPs < 0 || contextFetchPs < 0 || faultLogWritePs < 0 || invalidationPs < 0) {
            throw new IllegalArgumentException("IOMMU costs must not be negative: " + this);
        }
    }
}
