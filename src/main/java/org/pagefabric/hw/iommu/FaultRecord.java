package org.pagefabric.hw.iommu;

/**
 * One fault log entry, as a driver reads it.
 *
 * @param timePs when the fault happened
 * @param pdid   the protection domain
 * @param va     the faulting virtual address
 * @param write  whether the access was a write
 * @param reason why it faulted
 */
public record FaultRecord(long timePs, int pdid, long va, boolean write, FaultReason reason) {
}
