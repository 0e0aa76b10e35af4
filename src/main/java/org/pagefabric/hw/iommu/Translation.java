package org.pagefabric.hw.iommu;

import org.pagefabric.hw.os.Pte;

/**
 * The result of one translation, in a holder the caller reuses so that translating allocates
 * nothing. Valid until it is passed to the next translation.
 */
public final class Translation {
    /** The access may proceed to {@link #physicalAddress()}. */
    public static final int OK = 0;
    /** The access faulted and is refused (terminated: the device sees an error response). */
    public static final int FAULT = 1;
    /** An {@link AccessInterceptor} took the access: it reaches neither memory nor the fault log. */
    public static final int ABSORBED = 2;

    int outcome;
    long pte;
    long physicalAddress;
    long costPs;
    int hitLevel;
    int levelsWalked;
    FaultReason fault;
    boolean logged;

    void reset() {
        outcome = OK;
        pte = 0;
        physicalAddress = 0;
        costPs = 0;
        hitLevel = -1;
        levelsWalked = 0;
        fault = null;
        logged = false;
    }

    /** {@link #OK}, {@link #FAULT} or {@link #ABSORBED}. */
    public int outcome() {
        return outcome;
    }

    /** Whether the access may proceed. */
    public boolean ok() {
        return outcome == OK;
    }

    /** The leaf PTE word the translation used (0 if none was found). */
    public long pte() {
        return pte;
    }

    /** The physical address, if {@link #ok()}. */
    public long physicalAddress() {
        return physicalAddress;
    }

    /** The frame number of the 4 KiB frame holding the address, if {@link #ok()}. */
    public long frame() {
        return physicalAddress >>> Iotlb.PAGE_SHIFT;
    }

    /** Page size of the leaf used, in bytes (0 if none). */
    public long pageSize() {
        if (!Pte.has(pte, Pte.PRESENT)) {
            return 0;
        }
        return Pte.has(pte, Pte.HUGE) ? 1L << Iotlb.HUGE_SHIFT : 1L << Iotlb.PAGE_SHIFT;
    }

    /** Picoseconds the translation took. */
    public long costPs() {
        return costPs;
    }

    /** Adds cost, e.g. an interceptor's log write. */
    public void addCost(long ps) {
        if (ps < 0) {
            throw new IllegalArgumentException("negative cost " + ps + " ps");
        }
        costPs += ps;
    }

    /** The IOTLB level that hit (0 is L1), or -1 if the page table was walked (or no context). */
    public int hitLevel() {
        return hitLevel;
    }

    /** Page-table levels read by the walk (0 on an IOTLB hit). */
    public int levelsWalked() {
        return levelsWalked;
    }

    /** Why the access faulted, or null. */
    public FaultReason fault() {
        return fault;
    }

    /** Whether the fault was written to the fault log (false if it overflowed, or no fault). */
    public boolean logged() {
        return logged;
    }

    @Override
    public String toString() {
        return switch (outcome) {
            case OK -> "OK pa=0x" + Long.toHexString(physicalAddress) + " cost=" + costPs + "ps";
            case FAULT -> "FAULT " + fault + (logged ? " logged" : " not logged") + " cost=" + costPs + "ps";
            default -> "ABSORBED cost=" + costPs + "ps";
        };
    }
}
