package org.pagefabric.reg.odp;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.hw.nic.Nic;
import org.pagefabric.hw.param.CpuParameters;
import org.pagefabric.hw.param.NicParameters;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;
import org.pagefabric.reg.Statistic;

/** On-Demand Paging (001). */
public final class OdpProvider implements PolicyProvider {
    @Override
    public List<PolicyDescriptor> policies() {
        List<PolicyDescriptor> all = new ArrayList<>();
        List<Parameter> costs = ParameterRegistry.of(List.of(OdpParameters.class, CpuParameters.class),
                List.of(NicParameters.REGISTER_BASE));
        List<Statistic> stats = OdpDriver.statistics();
        Set<Capability> caps = Set.of(Capability.PAGED_OUT_MEMORY, Capability.PUT, Capability.GET, Capability.SEND_RECEIVE, Capability.ON_DEMAND_PAGING);
        Set<Capability> windowCaps = caps;
        caps = Set.of(Capability.PAGED_OUT_MEMORY, Capability.PUT, Capability.GET, Capability.SEND_RECEIVE,
                Capability.ON_DEMAND_PAGING, Capability.DMA_BUF);
        all.add(new PolicyDescriptor(OdpPolicy.EXPLICIT, "On-Demand Paging (001), explicit: each buffer in an on-demand"
                + " region, nothing pinned; the NIC faults, the driver pages in, maps and resumes", caps, costs, stats,
                p -> new OdpPolicy(OdpPolicy.EXPLICIT, p)));
        all.add(new PolicyDescriptor(OdpPolicy.IMPLICIT, "On-Demand Paging (001), implicit: one region over each rank's"
                + " whole address space, registered up front; translations grow with what is faulted in", caps, costs,
                stats, p -> new OdpPolicy(OdpPolicy.IMPLICIT, p)));
        all.add(new PolicyDescriptor(OdpPolicy.PREFETCH, "On-Demand Paging (001), explicit, every buffer prefetched"
                + " synchronously at both ends before use (the MPI rendezvous use of advise_mr)", caps, costs, stats,
                p -> new OdpPolicy(OdpPolicy.PREFETCH, p)));
        List<Statistic> windowStats = new ArrayList<>(stats);
        for (Nic.DeclaredCounter c : Nic.MEMORY_WINDOW_COUNTERS) {
            windowStats.add(new Statistic("<node>.nic." + c.name(), c.unit(), c.description()));
        }
        all.add(new PolicyDescriptor(OdpWindowsPolicy.NAME, "On-Demand Paging (001 future work) with memory windows:"
                + " one implicit region per rank, per (buffer, peer) a type-2 window bound on the peer's queue pair;"
                + " revoking a peer invalidates its window instead of re-registering", windowCaps, costs, windowStats,
                OdpWindowsPolicy::new));
        return all;
    }

    /** The costs this package declares. */
    @Override
    public List<Class<?>> declaringClasses() {
        return List.of(OdpParameters.class);
    }
}
