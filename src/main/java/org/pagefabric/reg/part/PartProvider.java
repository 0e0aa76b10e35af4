package org.pagefabric.reg.part;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.ParameterRegistry;
import org.pagefabric.hw.param.CpuParameters;
import org.pagefabric.hw.param.IommuParameters;
import org.pagefabric.hw.param.OsParameters;
import org.pagefabric.hw.param.PartParameters;
import org.pagefabric.hw.param.TransportParameters;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyDescriptor;
import org.pagefabric.reg.PolicyProvider;
import org.pagefabric.reg.Statistic;

/** PART (000) and the Table I methods on its hardware. */
public final class PartProvider implements PolicyProvider {
    @Override
    public List<PolicyDescriptor> policies() {
        List<PolicyDescriptor> all = new ArrayList<>();
        List<Parameter> costs = ParameterRegistry.of(List.of(PartDriverParameters.class, PartParameters.class,
                IommuParameters.class), List.of(CpuParameters.INTERRUPT, CpuParameters.CONTEXT_SWITCH,
                CpuParameters.MMIO_READ, OsParameters.PIN_BASE, OsParameters.PIN_PER_PAGE, OsParameters.UNPIN_BASE,
                OsParameters.UNPIN_PER_PAGE, OsParameters.PAGE_FAULT_MINOR, TransportParameters.TIMEOUT));
        List<Statistic> stats = PartDriver.statistics();
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
                ParameterRegistry.of(List.of(), List.of(OsParameters.MLOCK_BASE, OsParameters.MLOCK_PER_PAGE,
                        OsParameters.MUNLOCK_BASE, OsParameters.MUNLOCK_PER_PAGE, OsParameters.PAGE_FAULT_MINOR)), stats,
                p -> new TableOneMethod(TableOneMethod.PIN_MLOCK, p, TableOneMethod.Preparation.MLOCK, false)));
        all.add(new PolicyDescriptor(TableOneMethod.TOUCH_NOPRES, "000 Table I Touch-NoPres: the destination touches"
                + " every page of a first-use (non-present) buffer before the transfer, one CPU minor fault per page",
                caps, ParameterRegistry.of(List.of(), List.of(OsParameters.TOUCH_PRESENT, OsParameters.PAGE_FAULT_MINOR)), stats,
                p -> new TableOneMethod(TableOneMethod.TOUCH_NOPRES, p, TableOneMethod.Preparation.TOUCH, false)));
        all.add(new PolicyDescriptor(TableOneMethod.TOUCH_PRES, "000 Table I Touch-Pres: the destination touches every"
                + " page, already resident, before the transfer", caps, ParameterRegistry.of(List.of(), List.of(OsParameters.TOUCH_PRESENT)), stats,
                p -> new TableOneMethod(TableOneMethod.TOUCH_PRES, p, TableOneMethod.Preparation.TOUCH, true)));
        return all;
    }

    /** The driver's costs. */
    @Override
    public List<Class<?>> declaringClasses() {
        return List.of(PartDriverParameters.class);
    }
}
