package org.pagefabric.reg.odp;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.config.ParameterSet;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.FaultPhases;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;
import org.pagefabric.reg.Statistic;

/** On-Demand Paging (001). */
public final class OdpProvider implements PolicyProvider, ParameterSet {
    @Override
    public List<PolicyDescriptor> policies() {
        List<PolicyDescriptor> all = new ArrayList<>();
        List<Parameter> costs = ParameterRegistry.matching("odp.", "nic.register.base", "cpu.");
        List<Statistic> stats = new ArrayList<>(List.of(
                new Statistic("<node>.odp.faults", "faults", "page-fault events the driver received"),
                new Statistic("<node>.odp.resolved", "faults", "faults resolved and resumed (with or without new translations)"),
                new Statistic("<node>.odp.races", "faults", "page-ins that lost a race with an invalidation: resumed without mapping"),
                new Statistic("<node>.odp.unresolvable", "faults", "faults on addresses the process does not map: resumed with an error"),
                new Statistic("<node>.odp.foreign_faults", "faults", "faults on regions this driver did not register"),
                new Statistic("<node>.odp.pages_in", "pages", "pages paged in and mapped into the NIC"),
                new Statistic("<node>.odp.invalidations", "calls", "MMU-notifier invalidations that zapped NIC translations"),
                new Statistic("<node>.odp.invalidated_pages", "pages", "NIC translation entries zapped by invalidations"),
                new Statistic("<node>.odp.prefetches", "requests", "prefetch (advise_mr) requests served"),
                new Statistic("<node>.odp.prefetch_races", "requests", "prefetches that lost a race with an invalidation"),
                new Statistic("<node>.odp.implicit_children", "children", "children implicit keys created on first fault"),
                new Statistic("<node>.odp.young_reports", "ranges", "reclaim's clear-young queries that found pages the NIC used")));
        for (FaultPhases.Phase p : FaultPhases.Phase.values()) {
            stats.add(new Statistic("<node>.odp." + OdpDriver.phaseStatistic(p), "ps", "time resolved faults spent in phase " + p));
        }
        stats.add(new Statistic("<node>.odp.fault_time", "ps", "from the NIC raising a fault to the driver resuming the QP"));
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
        windowStats.add(new Statistic("<node>.nic.mw.binds", "requests", "memory-window binds that took effect"));
        windowStats.add(new Statistic("<node>.nic.mw.invalidations", "requests", "memory-window revocations that took effect"));
        windowStats.add(new Statistic("<node>.nic.mw.failed", "requests", "memory-window binds and revocations that failed"));
        windowStats.add(new Statistic("<node>.nic.mw.refused", "accesses", "remote accesses through a window's key refused"));
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
