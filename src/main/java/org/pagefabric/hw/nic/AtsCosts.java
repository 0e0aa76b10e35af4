package org.pagefabric.hw.nic;

/**
 * The shape and costs of a NIC's PCIe ATS/PRI support: its Address Translation Cache and the
 * PCIe messages it exchanges with the IOMMU.
 *
 * @param atcEntries               entries of the device's Address Translation Cache
 * @param atcWays                  its associativity (divides {@code atcEntries})
 * @param atcLookupPs              one ATC lookup
 * @param translationRequestPs     an ATS Translation Request's PCIe round trip to the root
 *                                 complex and back, the IOMMU's own translation excluded
 * @param pageRequestPs            a Page Request message reaching the IOMMU's queue
 * @param pageResponsePs           a PRG Response reaching the device and being acted on
 * @param invalidationRequestPs    an Invalidate Request reaching the device and its ATC being cleared
 * @param invalidationCompletionPs the device's Invalidation Completion reaching the IOMMU
 * @param outstandingPageRequests  Page Requests the device may have outstanding (the PRI
 *                                 Outstanding Page Request Allocation the OS grants)
 */
public record AtsCosts(int atcEntries, int atcWays, long atcLookupPs, long translationRequestPs, long pageRequestPs,
                       long pageResponsePs, long invalidationRequestPs, long invalidationCompletionPs,
                       int outstandingPageRequests) {
    /** Validates the shape and that no cost is negative. */
    public AtsCosts {
        if (atcEntries <= 0 || atcWays <= 0 || atcWays > atcEntries || atcEntries % atcWays != 0) {
            throw new IllegalArgumentException("ATC ways (" + atcWays + ") must divide its entries (" + atcEntries + ")");
        }
        if (atcLookupPs < 0 || translationRequestPs < 0 || pageRequestPs < 0 || pageResponsePs < 0
                || invalidationRequestPs < 0 || invalidationCompletionPs < 0) {
            throw new IllegalArgumentException("ATS costs must not be negative");
        }
        if (outstandingPageRequests <= 0) {
            throw new IllegalArgumentException("a device needs at least one outstanding page request, got "
                    + outstandingPageRequests);
        }
    }
}
