package org.pagefabric.reg.firehose;

import org.pagefabric.config.Profile;
import org.pagefabric.hw.param.NicParameters;

/**
 * What registering and deregistering buckets costs the NIC driver, on top of the kernel's pin and
 * unpin time: a per-call part and a per-page part.
 *
 * @param registerBasePs      per registration
 * @param registerPerPagePs   per page registered
 * @param deregisterBasePs    per deregistration
 * @param deregisterPerPagePs per page deregistered
 */
record PinCosts(long registerBasePs, long registerPerPagePs, long deregisterBasePs, long deregisterPerPagePs) {
    /** The costs of {@code profile}. */
    static PinCosts of(Profile profile) {
        return new PinCosts(profile.time(NicParameters.REGISTER_BASE), profile.time(NicParameters.REGISTER_PER_PAGE),
                profile.time(NicParameters.DEREGISTER_BASE), profile.time(NicParameters.DEREGISTER_PER_PAGE));
    }

    /** Driver time to register {@code pages} pages. */
    long register(int pages) {
        return registerBasePs + pages * registerPerPagePs;
    }

    /** Driver time of {@code pages} pages that extend a region already being deregistered: no call of their own. */
    long deregisterExtension(int pages) {
        return pages * deregisterPerPagePs;
    }

    /** Driver time to deregister {@code pages} pages. */
    long deregister(int pages) {
        return deregisterBasePs + pages * deregisterPerPagePs;
    }
}
