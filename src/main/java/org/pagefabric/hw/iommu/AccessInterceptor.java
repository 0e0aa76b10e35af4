package org.pagefabric.hw.iommu;

/**
 * A seam consulted on every translation of a bound domain, with the leaf PTE word (from the
 * IOTLB or the walk) and the IOMMU's own verdict, before any fault is logged. Active Access
 * routes accesses by the entry's WL/WLD/RL/RLD/E bits and IUID to its access logs here; a
 * policy may also just observe. Implementations must not allocate on this path.
 */
@FunctionalInterface
public interface AccessInterceptor {
    /** Let the IOMMU's verdict stand: translate, or fault and log. */
    int PROCEED = 0;
    /** The interceptor took the access: the device's access reaches neither memory nor the fault log. */
    int ABSORB = 1;

    /**
     * Decides an access.
     *
     * @param bank        the domain's context bank
     * @param va          the accessed virtual address
     * @param write       whether the access is a write
     * @param pte         the leaf entry (0 if the walk found none)
     * @param fault       the IOMMU's verdict: null if the access is permitted
     * @param translation the result being built: add costs here (e.g. log writes)
     * @return {@link #PROCEED} or {@link #ABSORB}
     */
    int intercept(ContextBank bank, long va, boolean write, long pte, FaultReason fault, Translation translation);
}
