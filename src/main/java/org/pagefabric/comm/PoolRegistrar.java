package org.pagefabric.comm;

import org.pagefabric.config.Profile;
import org.pagefabric.hw.nic.DomainGrowth;
import org.pagefabric.hw.param.NicParameters;

/**
 * What registering and deregistering whole buffers costs on a node's NICs, per call, as
 * {@code ibv_reg_mr} and {@code fi_mr_reg} charge it: {@code nic.register.base} plus
 * {@code nic.register.per_page} per page, plus for device memory the growth of its protection
 * domain ({@link DomainGrowth}); a deregistration {@code nic.deregister.base} plus
 * {@code nic.deregister.per_page} per page. It maps nothing, so a pool of hundreds of GB costs as
 * little to simulate as one page: for workloads that time registration itself rather than the
 * transfers it enables. One protection domain per NIC.
 */
public final class PoolRegistrar {
    private final long regBase;
    private final long regPerPage;
    private final long deregBase;
    private final long deregPerPage;
    private final DomainGrowth[] domains;

    /** The costs of {@code profile}, with {@code nics} protection domains holding nothing yet. */
    public PoolRegistrar(Profile profile, int nics) {
        regBase = profile.time(NicParameters.REGISTER_BASE);
        regPerPage = profile.time(NicParameters.REGISTER_PER_PAGE);
        deregBase = profile.time(NicParameters.DEREGISTER_BASE);
        deregPerPage = profile.time(NicParameters.DEREGISTER_PER_PAGE);
        long growth = profile.time(NicParameters.REGISTER_DEVICE_GROWTH);
        domains = new DomainGrowth[nics];
        for (int n = 0; n < nics; n++) {
            domains[n] = new DomainGrowth(growth);
        }
    }

    /**
     * Registers {@code bytes} in pages of {@code pageBytes} on NIC {@code nic}; device memory adds
     * to what its domain holds. Returns the call's cost in picoseconds.
     */
    public long register(int nic, long bytes, long pageBytes, boolean device) {
        return regBase + pages(bytes, pageBytes) * regPerPage + (device ? domains[nic].register(bytes) : 0);
    }

    /** Deregisters what {@link #register} registered; returns the call's cost in picoseconds. */
    public long deregister(int nic, long bytes, long pageBytes, boolean device) {
        if (device) {
            domains[nic].deregister(bytes);
        }
        return deregBase + pages(bytes, pageBytes) * deregPerPage;
    }

    /** Device memory registered before the timed part: grows the domain, costs nothing timed. */
    public void holdBefore(int nic, long bytes) {
        domains[nic].register(bytes);
    }

    /** Pages of {@code pageBytes} a buffer of {@code bytes} spans (a partial page counts whole). */
    public static long pages(long bytes, long pageBytes) {
        return (bytes + pageBytes - 1) / pageBytes;
    }
}
