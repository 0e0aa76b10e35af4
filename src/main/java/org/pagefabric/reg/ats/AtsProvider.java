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
        List<Statistic> stats = List.of(
                new Statistic("<node>.ats.page_requests", "requests", "Page Requests the I/O page-fault handler served"),
                new Statistic("<node>.ats.page_request_groups", "groups",
                        "Page Request Groups answered (one work item and one response each)"),
                new Statistic("<node>.ats.pages_in", "pages", "pages the I/O page-fault handler faulted in"),
                new Statistic("<node>.ats.unresolved", "requests",
                        "Page Requests for addresses the process does not map (answered invalid)"),
                new Statistic("<node>.ats.page_request_time", "ps",
                        "from the NIC sending a Page Request Group to its PRG Response reaching the NIC"),
                new Statistic("<node>.nic.ats.atc_hits", "pages", "page translations found in the Address Translation Cache"),
                new Statistic("<node>.nic.ats.atc_misses", "pages", "page translations that sent an ATS Translation Request"),
                new Statistic("<node>.nic.ats.page_requests", "requests",
                        "Page Requests (PRI) sent for pages not present or not writable"),
                new Statistic("<node>.nic.ats.page_requests_lost", "requests", "Page Requests not sent: the page-request queue was full"),
                new Statistic("<node>.nic.ats.send_stalls", "packets",
                        "payload reads whose queue pair's send waited for a PRG Response"),
                new Statistic("<node>.nic.ats.not_ready", "packets",
                        "placements answered RECEIVER_NOT_READY while their page was requested"),
                new Statistic("<node>.nic.ats.invalidate_requests", "requests", "ATS Invalidate Requests the device completed"),
                new Statistic("<node>.nic.ats.invalidated_entries", "entries", "ATC entries the Invalidate Requests removed"),
                new Statistic("<node>.nic.ats.invalidation_wait_ps", "ps",
                        "time from Invalidate Requests to their completions, in-flight accesses drained"));
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
