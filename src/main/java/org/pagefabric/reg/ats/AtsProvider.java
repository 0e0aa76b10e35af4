package org.pagefabric.reg.ats;

import java.util.List;
import java.util.Set;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.hw.param.CpuParameters;
import org.pagefabric.hw.param.IommuParameters;
import org.pagefabric.hw.param.OsParameters;
import org.pagefabric.hw.param.TransportParameters;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;
import org.pagefabric.reg.Statistic;

/** PCIe ATS/PRI with PASID. */
public final class AtsProvider implements PolicyProvider {
    @Override
    public List<PolicyDescriptor> policies() {
        List<Statistic> stats = PriHandler.statistics();

        return List.of(new PolicyDescriptor(AtsPriPolicy.NAME, "PCIe ATS/PRI with PASID: each process's address space"
                + " bound under its PASID, nothing pinned or registered per buffer; the NIC caches translations in its"
                + " ATC, pages not present are asked for with Page Requests the OS faults in, and munmap waits for the"
                + " NIC's invalidation completion",
                Set.of(Capability.PAGED_OUT_MEMORY, Capability.PUT, Capability.GET, Capability.SEND_RECEIVE,
                        Capability.NEEDS_IOMMU),
                ParameterRegistry.of(List.of(AtsParameters.class, IommuParameters.class), List.of(CpuParameters.INTERRUPT,
                        OsParameters.PAGE_FAULT_MAJOR, OsParameters.PAGE_FAULT_MINOR, TransportParameters.RNR_DELAY,
                        TransportParameters.TIMEOUT)),
                stats, AtsPriPolicy::new));
    }

    /** The costs this package declares. */
    @Override
    public List<Class<?>> declaringClasses() {
        return List.of(AtsParameters.class);
    }
}
