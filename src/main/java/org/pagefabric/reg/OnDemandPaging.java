package org.pagefabric.reg;

import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.nic.ProtectionDomain;
import org.pagefabric.hw.os.AddressSpace;

/**
 * A node's on-demand-paging driver (001) as a policy that uses one offers it
 * ({@link RegistrationPolicy#onDemandPaging}): it registers memory that is never pinned (the NIC
 * faults on a missing translation and the driver pages in) and resolves the faults phase by phase.
 * A workload registers through it the buffers of processes it runs beside the job's ranks, such as
 * an ODP application sharing the job's NICs.
 */
public interface OnDemandPaging extends FaultPhases {
    /**
     * Registers {@code [address, address + length)} of {@code process} as an on-demand region
     * ({@code IBV_ACCESS_ON_DEMAND}): nothing pinned, nothing translated until the NIC faults.
     *
     * @param access {@link org.pagefabric.hw.nic.AccessFlags} of the region
     */
    MemoryRegion register(AddressSpace process, ProtectionDomain pd, long address, long length, int access);

    /**
     * The driver's time in invalidations so far, picoseconds (MMU notifiers zapping NIC
     * translations): whoever changes a mapping (munmap, madvise) spends the difference across the
     * change, on top of the kernel's own cost.
     */
    long invalidationPs();
}
