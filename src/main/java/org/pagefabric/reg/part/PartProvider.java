package org.pagefabric.reg.part;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;
import org.pagefabric.reg.Statistic;

/** PART (000) and the Table I methods on its hardware. */
public final class PartProvider implements PolicyProvider {
    @Override
    public List<PolicyDescriptor> policies() {
        List<PolicyDescriptor> all = new ArrayList<>();
        List<Parameter> costs = ParameterRegistry.matching("part.", "iommu.", "cpu.interrupt", "cpu.context_switch", "cpu.mmio_read", "os.pin.", "os.unpin.", "os.page_fault.minor", "transport.timeout");
        List<Statistic> stats = List.of(
                new Statistic("<node>.part.taskletRuns", "runs", "fault tasklet runs"),
                new Statistic("<node>.part.pagesPagedIn", "pages", "pages the tasklet paged in (get_user_pages)"),
                new Statistic("<node>.part.faultPages", "pages", "unique faulting pages read from the NI FIFO"),
                new Statistic("<node>.part.fifoEntries", "entries", "NI FIFO entries read"),
                new Statistic("<node>.part.errs", "requests", "explicit retransmission requests issued"),
                new Statistic("<node>.part.answeredEntries", "entries",
                        "NI FIFO entries logged before an ERR for their block was issued (no ERR of their own)"),
                new Statistic("<node>.part.staleEntries", "entries",
                        "NI FIFO entries whose page was already present when read (only their ERR was needed)"),
                new Statistic("<node>.part.unresolved", "pages", "faulting pages get_user_pages could not bring in"));
        Set<Capability> caps = Set.of(Capability.PAGED_OUT_MEMORY, Capability.PUT, Capability.GET, Capability.SEND_RECEIVE, Capability.FAULT_TRACE,
                Capability.NEEDS_IOMMU);
        all.add(new PolicyDescriptor(PartPolicy.PIO, "PART (000): nothing pinned, the IOMMU walks the process page table;"
                + " a network page fault is paged in by the fault tasklet (the faulting page only) and its block"
                + " retransmitted after an Explicit Retransmission Request", caps, costs, stats,
                p -> new PartPolicy(PartPolicy.PIO, p, PageIn.ONE, true)));
        all.add(new PolicyDescriptor(PartPolicy.PI4, "PART, page-in of the faulting page's whole block (4 pages of a 16 KB"
                + " block) on a fault", caps, costs, stats, p -> new PartPolicy(PartPolicy.PI4, p, PageIn.BLOCK, true)));
        all.add(new PolicyDescriptor(PartPolicy.PIA, "PART, page-in of every remaining page of the transfer on its first"
                + " fault", caps, costs, stats, p -> new PartPolicy(PartPolicy.PIA, p, PageIn.ALL, true)));
        all.add(new PolicyDescriptor(PartPolicy.PIO_TIMEOUT, "PART without ERR: faulting packets are dropped, the tasklet"
                + " pages in the faulting page and the source's time-out (transport.timeout) retransmits the block", caps,
                costs, stats, p -> new PartPolicy(PartPolicy.PIO_TIMEOUT, p, PageIn.ONE, false)));
        all.add(new PolicyDescriptor(TableOneMethod.TRANSFER_ONLY, "000 Table I Transfer-Only on PART's hardware:"
                + " destination pages resident, nothing done before the transfer", caps, costs, stats,
                p -> new TableOneMethod(TableOneMethod.TRANSFER_ONLY, p, TableOneMethod.Preparation.NONE, true)));
        all.add(new PolicyDescriptor(TableOneMethod.PIN_MLOCK, "000 Table I Pin: the destination mlocks its buffer before"
                + " each transfer (munlock after completion), on PART's hardware", caps,
                ParameterRegistry.matching("os.mlock.", "os.munlock.", "os.page_fault.minor"), stats,
                p -> new TableOneMethod(TableOneMethod.PIN_MLOCK, p, TableOneMethod.Preparation.MLOCK, false)));
        all.add(new PolicyDescriptor(TableOneMethod.TOUCH_NOPRES, "000 Table I Touch-NoPres: the destination touches"
                + " every page of a first-use (non-present) buffer before the transfer, one CPU minor fault per page",
                caps, ParameterRegistry.matching("os.touch.present", "os.page_fault.minor"), stats,
                p -> new TableOneMethod(TableOneMethod.TOUCH_NOPRES, p, TableOneMethod.Preparation.TOUCH, false)));
        all.add(new PolicyDescriptor(TableOneMethod.TOUCH_PRES, "000 Table I Touch-Pres: the destination touches every"
                + " page, already resident, before the transfer", caps, ParameterRegistry.matching("os.touch.present"), stats,
                p -> new TableOneMethod(TableOneMethod.TOUCH_PRES, p, TableOneMethod.Preparation.TOUCH, true)));
        return all;
    }
}
