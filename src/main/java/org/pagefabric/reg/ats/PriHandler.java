package org.pagefabric.reg.ats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.pagefabric.hw.cpu.CpuThread;
import org.pagefabric.hw.cpu.InterruptController;
import org.pagefabric.hw.iommu.Iommu;
import org.pagefabric.hw.iommu.PageRequestQueue;
import org.pagefabric.hw.nic.IommuDmaPath;
import org.pagefabric.hw.nic.Nic;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.node.SharedVirtualAddressing;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.HostStage;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.OsCosts;
import org.pagefabric.hw.os.PinResult;
import org.pagefabric.reg.Statistic;
import org.pagefabric.sim.collect.IndexedPool;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * The OS's side of PCIe PRI on one node, as Linux's SVA does it: it binds each process's address
 * space under its PASID ({@link SharedVirtualAddressing#bindWithDeviceTlb}, whose MMU notifier
 * invalidates the IOMMU and the NIC's ATC and waits for the device's completion), turns the NIC's
 * ATS on, and resolves Page Requests:
 * <ol>
 *   <li>the IOMMU's page-request interrupt runs a handler ({@code ats.pri.interrupt}) that takes
 *       every request that has reached the queue, gathers them into their Page Request Groups
 *       and queues each complete group to the I/O page-fault workqueue (drivers/iommu/io-pgfault.c);</li>
 *   <li>the group's work item ({@code ats.pri.iopf}: mm reference, mmap_read_lock, vma_lookup in
 *       iommu_sva_handle_mm, drivers/iommu/iommu-sva.c) faults each page in with the kernel's own
 *       fault path, the one ODP's driver pages in with (its cost is the kernel's, no page stays
 *       referenced), and sends one page response ({@code ats.pri.response}, iopf_group_response);</li>
 *   <li>the PRG Response reaches the NIC ({@code ats.page_response}) and the group's pages may be
 *       asked for again; the NIC's next access to them sends new Translation Requests.</li>
 * </ol>
 * All of it runs on the last core, one request after another. A request for an address the
 * process does not map is answered all the same (Linux answers IOMMU_PAGE_RESP_INVALID) and
 * counted as unresolved.
 */
public final class PriHandler extends Component {
    /** One of the handler's statistics, below its component name; the policy's descriptor lists the same ones. */
    private record Declared(String name, String unit, String description) {
        Statistic statistic() {
            return new Statistic("<node>.ats." + name, unit, description);
        }
    }

    private static final Declared REQUESTS = new Declared("page_requests", "requests",
            "Page Requests the I/O page-fault handler served");
    private static final Declared GROUPS = new Declared("page_request_groups", "groups",
            "Page Request Groups answered (one work item and one response each)");
    private static final Declared PAGES_IN = new Declared("pages_in", "pages", "pages the I/O page-fault handler faulted in");
    private static final Declared UNRESOLVED = new Declared("unresolved", "requests",
            "Page Requests for addresses the process does not map (answered invalid)");
    private static final Declared SERVICE_TIME = new Declared("page_request_time", "ps",
            "from the NIC sending a Page Request Group to its PRG Response reaching the NIC");

    /** The handler's statistics and those the NIC keeps once ATS is on, as the policy reports them. */
    static List<Statistic> statistics() {
        List<Statistic> all = new ArrayList<>();
        for (Declared d : List.of(REQUESTS, GROUPS, PAGES_IN, UNRESOLVED, SERVICE_TIME)) {
            all.add(d.statistic());
        }
        for (Nic.DeclaredCounter c : IommuDmaPath.ATS_COUNTERS) {
            all.add(new Statistic("<node>.nic." + c.name(), c.unit(), c.description()));
        }
        return all;
    }

    private Counter counter(Declared d) {
        return counter(d.name(), d.unit(), d.description());
    }

    private static final int IRQ_DONE = 1;
    private static final int DISPATCHED = 2;
    private static final int RESPONDED = 3;
    private static final int DELIVERED = 4;

    private final Iommu iommu;
    private final IommuDmaPath path;
    private final Kernel kernel;
    private final OsCosts osCosts;
    private final PriCosts costs;
    private final CpuThread workQueue;
    private AddressSpace[] processes = new AddressSpace[8];

    private final IndexedPool<Work> works = new IndexedPool<>(Work::new);
    private final ArrayList<Work> irqBatch = new ArrayList<>();
    /** A Page Request Group whose last request has not been read yet. */
    private Work partial;

    private final Counter requests;
    private final Counter groups;
    private final Counter pagesIn;
    private final Counter unresolved;
    private final LatencyHistogram serviceTime;

    /** Installs PRI handling on {@code node}: its IOMMU's page-request queue, interrupt and the NIC's ATS. */
    PriHandler(Node node, PriCosts costs) {
        super(node.simulator(), node, "ats");
        this.iommu = node.iommu();
        this.path = node.nic().iommuPath();
        this.kernel = node.kernel();
        this.osCosts = kernel.costs();
        this.costs = costs;
        int core = node.cpu().coreCount() - 1;
        InterruptController irqs = node.cpu().interrupts();
        int irq = irqs.register(node.name() + "_prq", core, (type, arg) -> drain(), this, IRQ_DONE);
        this.workQueue = node.cpu().thread(node.name() + ".iopf_wq", core);
        iommu.enablePageRequests(costs.prqEntries(), irqs, irq);
        path.enableAts(costs.device());
        HostStage host = node.hostStage();
        if (host != null) {
            // Under a hypervisor that tells devices (vm.host_notifier), its second-stage changes reach the ATC too.
            host.subscribeDevice(gfn -> path.invalidateDeviceAll());
        }
        requests = counter(REQUESTS);
        groups = counter(GROUPS);
        pagesIn = counter(PAGES_IN);
        unresolved = counter(UNRESOLVED);
        serviceTime = latency(SERVICE_TIME.name(), SERVICE_TIME.description());
    }

    /**
     * Binds {@code process}'s address space under PASID {@code pasid} (shared virtual addressing
     * with the NIC's ATC kept coherent by the MMU notifier).
     */
    void bind(int pasid, AddressSpace process) {
        SharedVirtualAddressing.bindWithDeviceTlb(iommu, pasid, process, path);
        if (pasid >= processes.length) {
            processes = Arrays.copyOf(processes, Math.max(pasid + 1, processes.length * 2));
        }
        processes[pasid] = process;
    }

    /** The interrupt handler: takes every request that has reached the queue (the line coalesces raises). */
    private long drain() {
        PageRequestQueue q = iommu.pageRequests();
        long now = sim.now();
        while (q.headArrived(now)) {
            Work w = partial;
            if (w == null) {
                w = works.take();
                w.pasid = q.headPasid();
                w.sent = q.headArrivedPs() - costs.device().pageRequestPs();
            }
            w.add(q.headAddress(), q.headWrite());
            boolean last = q.headLast();
            q.remove();
            if (last) {
                irqBatch.add(w);
                partial = null;
            } else {
                partial = w;
            }
        }
        return costs.interruptPs();
    }

    @Override
    public void handle(int type, long arg) {
        if (type == IRQ_DONE) {
            for (Work w : irqBatch) {
                workQueue.run(costs.iopfPs(), this, DISPATCHED, w.slot);
            }
            irqBatch.clear();
            // Requests that arrived while the handler ran raised the line again, or are taken by the next run.
            return;
        }
        Work w = works.get((int) arg);
        switch (type) {
            case DISPATCHED -> workQueue.run(fault(w) + costs.responsePs(), this, RESPONDED, w.slot);
            case RESPONDED -> schedule(costs.device().pageResponsePs(), DELIVERED, w.slot);
            case DELIVERED -> {
                for (int i = 0; i < w.pages; i++) {
                    path.pageResponse(w.pasid, w.va[i]);
                }
                requests.add(w.pages);
                groups.increment();
                serviceTime.record(sim.now() - w.sent);
                w.pages = 0;
                works.release(w);
            }
            default -> throw new IllegalArgumentException("unknown PRI handler event " + type);
        }
    }

    /** Faults the group's pages in through the kernel (handle_mm_fault, one page each); returns the kernel's time. */
    private long fault(Work w) {
        AddressSpace process = w.pasid < processes.length ? processes[w.pasid] : null;
        long cost = 0;
        for (int i = 0; i < w.pages; i++) {
            if (process == null) {
                unresolved.increment();
                continue;
            }
            PinResult r = kernel.getUserPages(process, w.va[i], 1, w.write[i]);
            if (r.pinned() == 0) {
                unresolved.increment();
                continue;
            }
            kernel.putPage(r.frames()[0]);
            pagesIn.increment();
            // handle_mm_fault's work only: get_user_pages' own walk and reference are not on this path
            cost += Math.max(0, r.costPs() - osCosts.gupBasePs() - osCosts.gupPerPagePs());
        }
        return cost;
    }


    /** Page Requests served so far. */
    public long pageRequests() {
        return requests.value();
    }

    /** One Page Request Group in service; reused. */
    private static final class Work {
        final int slot;
        int pasid;
        long[] va = new long[4];
        boolean[] write = new boolean[4];
        int pages;
        long sent;

        Work(int slot) {
            this.slot = slot;
        }

        void add(long address, boolean isWrite) {
            if (pages == va.length) {
                va = Arrays.copyOf(va, pages * 2);
                write = Arrays.copyOf(write, pages * 2);
            }
            va[pages] = address;
            write[pages++] = isWrite;
        }
    }
}
