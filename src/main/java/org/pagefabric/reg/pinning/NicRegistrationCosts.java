package org.pagefabric.reg.pinning;

import java.util.List;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.Profile;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.param.NicParameters;
import org.pagefabric.hw.param.OsParameters;

/**
 * What registering a pinned range with the NIC and deregistering it cost
 * ({@code nic.register.*}, {@code nic.deregister.*}), and whether the runtime marks a registered
 * range MADV_DONTFORK and undoes it on deregistration: the accounting every policy that pins and
 * registers shares, so that the policies compare on equal terms.
 *
 * @param registerBasePs      the fixed part of a registration
 * @param registerPerPagePs   a registration's cost per page
 * @param deregisterBasePs    the fixed part of a deregistration
 * @param deregisterPerPagePs a deregistration's cost per page
 * @param dontfork            whether a registration marks its range MADV_DONTFORK (ibv_dontfork_range)
 * @param dofork              whether a deregistration undoes that (ibv_dofork_range)
 */
public record NicRegistrationCosts(long registerBasePs, long registerPerPagePs, long deregisterBasePs,
                                   long deregisterPerPagePs, boolean dontfork, boolean dofork) {
    /**
     * The profile parameters pinning and registering a range, and undoing it, cost: the NIC's
     * registration and deregistration and the kernel's pin and unpin. A policy built on these
     * steps lists them among the parameters it reads.
     */
    public static final List<Parameter> PARAMETERS = List.of(NicParameters.REGISTER_BASE,
            NicParameters.REGISTER_PER_PAGE, NicParameters.REGISTER_DONTFORK, NicParameters.DEREGISTER_BASE,
            NicParameters.DEREGISTER_PER_PAGE, NicParameters.DEREGISTER_DOFORK, OsParameters.PIN_BASE,
            OsParameters.PIN_PER_PAGE, OsParameters.UNPIN_BASE, OsParameters.UNPIN_PER_PAGE);

    /** The costs {@code profile} gives. */
    public static NicRegistrationCosts of(Profile profile) {
        return new NicRegistrationCosts(profile.time(NicParameters.REGISTER_BASE),
                profile.time(NicParameters.REGISTER_PER_PAGE), profile.time(NicParameters.DEREGISTER_BASE),
                profile.time(NicParameters.DEREGISTER_PER_PAGE), profile.flag(NicParameters.REGISTER_DONTFORK),
                profile.flag(NicParameters.DEREGISTER_DOFORK));
    }

    /** The NIC's time to register {@code pages} pages. */
    public long registerPs(long pages) {
        return registerBasePs + pages * registerPerPagePs;
    }

    /** The NIC's time to deregister {@code pages} pages. */
    public long deregisterPs(long pages) {
        return deregisterBasePs + pages * deregisterPerPagePs;
    }

    /** ibv_dontfork_range on registration, when the runtime does it; returns its kernel time. */
    public long markDontfork(AddressSpace process, long start, long length) {
        return dontfork ? process.dontforkRanges().dontfork(start, length) : 0;
    }

    /** ibv_dofork_range on deregistration, when the runtime does it (see {@link NicParameters#DEREGISTER_DOFORK}). */
    public long undoDontfork(AddressSpace process, long start, long length) {
        return dontfork && dofork ? process.dontforkRanges().dofork(start, length) : 0;
    }
}
