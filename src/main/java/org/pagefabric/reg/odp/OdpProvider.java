package org.pagefabric.reg.odp;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.hw.profile.Parameter;
import org.pagefabric.hw.profile.ParameterRegistry;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;
import org.pagefabric.reg.Statistic;

/** On-Demand Paging (001). */
public final class OdpProvider implements PolicyProvider {
    @Override
    public List<PolicyDescriptor> policies() {
        List<PolicyDescriptor> all = new ArrayList<>();
        List<Parameter> costs = ParameterRegistry.matching("odp.", "nic.register.base", "cpu.");
        List<Statistic> stats = List.of(
                new Statistic("<node>.odp.faults", "faults", "page-fault events the driver received"),
                new Statistic("<node>.odp.pages_in", "pages", "pages paged in and mapped into the NIC"),
                new Statistic("<node>.odp.invalidations", "calls", "MMU-notifier invalidations that zapped NIC translations"));
        all.add(new PolicyDescriptor(OdpPolicy.EXPLICIT, "On-Demand Paging (001), explicit: each buffer in an on-demand"
                + " region, nothing pinned; the NIC faults, the driver pages in, maps and resumes", Set.of(Capability.PUT, Capability.GET, Capability.SEND_RECEIVE), costs, stats,
                p -> new OdpPolicy(OdpPolicy.EXPLICIT, p)));
        all.add(new PolicyDescriptor(OdpPolicy.IMPLICIT, "On-Demand Paging (001), implicit: one region over each rank's"
                + " whole address space, registered up front; translations grow with what is faulted in", Set.of(Capability.PUT, Capability.GET, Capability.SEND_RECEIVE), costs,
                stats, p -> new OdpPolicy(OdpPolicy.IMPLICIT, p)));
        all.add(new PolicyDescriptor(OdpPolicy.PREFETCH, "On-Demand Paging (001), explicit, every buffer prefetched"
                + " synchronously at both ends before use (the MPI rendezvous use of advise_mr)", Set.of(Capability.PUT, Capability.GET, Capability.SEND_RECEIVE), costs, stats,
                p -> new OdpPolicy(OdpPolicy.PREFETCH, p)));
        return all;
    }
}
