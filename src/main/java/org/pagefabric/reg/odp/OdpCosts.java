package org.pagefabric.reg.odp;

import org.pagefabric.config.Profile;
import org.pagefabric.hw.param.NicParameters;

/**
 * What the ODP driver's steps cost, from a profile (every value there with its unit and source).
 * The fault components are inputs; the fault time is what the simulation makes of them, with
 * queueing on the interrupt core and the work-queue thread included.
 *
 * @param interruptPs        the fault interrupt handler (event-queue poll), once per interrupt
 * @param eventHandlingPs    classifying one fault and getting its per-QP work item running
 * @param pageInBasePs       fixed part of paging in a faulting range
 * @param pageInPerPagePs    per page paged in and DMA-mapped
 * @param mappingBasePs      fixed part of writing the new translations to the NIC (a UMR)
 * @param mappingPerPagePs   per translation entry written
 * @param resumePs           the PAGE_FAULT_RESUME command
 * @param invalidateBasePs   per MMU-notifier invalidation: zap and wait for in-flight DMA
 * @param invalidatePerPagePs per page invalidated (DMA unmap, dirty marking)
 * @param prefetchMaxBytes   the largest range one prefetch call pages in
 * @param implicitChildBytes size of the children an implicit key creates on first fault
 * @param registerPs         registering an on-demand region (no pinning, no translation written)
 * @param accessBits         whether the NIC's use of a page is reported to reclaim ({@code odp.access_bits})
 */
public record OdpCosts(long interruptPs, long eventHandlingPs, long pageInBasePs, long pageInPerPagePs,
                       long mappingBasePs, long mappingPerPagePs, long resumePs, long invalidateBasePs,
                       long invalidatePerPagePs, long prefetchMaxBytes, long implicitChildBytes, long registerPs,
                       boolean accessBits) {
    /** The costs of {@code profile}. */
    public static OdpCosts of(Profile profile) {
        return new OdpCosts(profile.time(OdpParameters.FAULT_INTERRUPT), profile.time(OdpParameters.FAULT_EVENT_HANDLING),
                profile.time(OdpParameters.FAULT_PAGE_IN_BASE), profile.time(OdpParameters.FAULT_PAGE_IN_PER_PAGE),
                profile.time(OdpParameters.FAULT_MAPPING_UPDATE_BASE),
                profile.time(OdpParameters.FAULT_MAPPING_UPDATE_PER_PAGE), profile.time(OdpParameters.FAULT_RESUME),
                profile.time(OdpParameters.INVALIDATE_BASE), profile.time(OdpParameters.INVALIDATE_PER_PAGE),
                profile.size(OdpParameters.PREFETCH_MAX), profile.size(OdpParameters.IMPLICIT_CHILD_SIZE),
                profile.time(NicParameters.REGISTER_BASE), profile.flag(OdpParameters.ACCESS_BITS));
    }

    /** Driver time to page in {@code pages} pages (kernel fault work comes on top). */
    long pageIn(int pages) {
        return pageInBasePs + pages * pageInPerPagePs;
    }

    /** Time to write {@code pages} translation entries to the NIC. */
    long mapping(int pages) {
        return mappingBasePs + pages * mappingPerPagePs;
    }

    /** Time to invalidate {@code pages} pages of NIC translations. */
    long invalidate(long pages) {
        return invalidateBasePs + pages * invalidatePerPagePs;
    }
}
