package org.pagefabric.reg.nprdma;

import java.util.List;
import java.util.Set;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.hw.param.OsParameters;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;
import org.pagefabric.reg.Statistic;

/** NP-RDMA (arXiv 2310.11062): registration without pinning on a NIC that cannot fault. */
public final class NpRdmaProvider implements PolicyProvider {
    @Override
    public List<PolicyDescriptor> policies() {
        List<Parameter> costs = ParameterRegistry.of(List.of(NpRdmaParameters.class),
                List.of(OsParameters.SYSCALL, OsParameters.PAGE_FAULT_MINOR, OsParameters.PAGE_FAULT_MAJOR));
        Set<Capability> caps = Set.of(Capability.PUT, Capability.GET, Capability.SEND_RECEIVE,
                Capability.PAGED_OUT_MEMORY, Capability.NEEDS_IOMMU);
        List<Statistic> stats = List.of(new Statistic(NpRdmaPolicy.NAME + ".remote_resolves", "requests",
                "requests a library sent to a target's module to resolve pages of a one-sided verb"));
        return List.of(new PolicyDescriptor(NpRdmaPolicy.NAME, "NP-RDMA (arXiv 2310.11062): nothing pinned; the NIC"
                + " reaches memory through the IOMMU, a kernel module tracks pages with an MMU notifier and the"
                + " library resolves missing pages in software before posting", caps, costs, stats,
                NpRdmaPolicy::new));
    }

    /** The costs this package declares. */
    @Override
    public List<Class<?>> declaringClasses() {
        return List.of(NpRdmaParameters.class);
    }
}
