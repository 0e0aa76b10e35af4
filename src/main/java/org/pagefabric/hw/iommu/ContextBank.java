package org.pagefabric.hw.iommu;

/**
 * A context bank: the IOMMU state of one protection domain (PDID), bound to the process page
 * table that translations of the domain walk, with its own fault registers as an ARM SMMU
 * context bank has (status, faulting address, syndrome). The registers hold the first
 * unacknowledged fault; later faults before {@link #clearFault()} only set the multiple-fault
 * flag, as the SMMU's FSR.MULTI bit.
 */
public final class ContextBank {
    private final int pdid;
    private final int index;
    private final ProcessPageTable pageTable;
    private boolean faultValid;
    private boolean multipleFaults;
    private long faultAddress;
    private boolean faultWrite;
    private FaultReason faultReason;
    private long faults;

    ContextBank(int pdid, int index, ProcessPageTable pageTable) {
        this.pdid = pdid;
        this.index = index;
        this.pageTable = pageTable;
    }

    /** The protection domain. */
    public int pdid() {
        return pdid;
    }

    /** The bank's index in the IOMMU. */
    public int index() {
        return index;
    }

    /** The page table walked for this domain. */
    public ProcessPageTable pageTable() {
        return pageTable;
    }

    void recordFault(long va, boolean write, FaultReason reason) {
        faults++;
        if (faultValid) {
            multipleFaults = true;
            return;
        }
        faultValid = true;
        faultAddress = va;
        faultWrite = write;
        faultReason = reason;
    }

    /** Whether the fault registers hold a fault (FSR non-zero). */
    public boolean faultValid() {
        return faultValid;
    }

    /** Whether further faults happened while the registers were occupied (FSR.MULTI). */
    public boolean multipleFaults() {
        return multipleFaults;
    }

    /** The faulting address (FAR). */
    public long faultAddress() {
        return faultAddress;
    }

    /** Whether the faulting access was a write (FSYNR.WNR). */
    public boolean faultWrite() {
        return faultWrite;
    }

    /** Why the registered fault happened, or null if none is registered. */
    public FaultReason faultReason() {
        return faultValid ? faultReason : null;
    }

    /** Clears the fault registers (the driver's write-one-to-clear of FSR). */
    public void clearFault() {
        faultValid = false;
        multipleFaults = false;
        faultReason = null;
    }

    /** Faults in this domain so far. */
    public long faults() {
        return faults;
    }
}
