package org.pagefabric.reg.odp;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.agrona.collections.LongHashSet;
import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.hw.cpu.CpuThread;
import org.pagefabric.hw.cpu.InterruptController;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.AdviseMrFlags;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.nic.Nic;
import org.pagefabric.hw.nic.PageFault;
import org.pagefabric.hw.nic.PageFaultHandler;
import org.pagefabric.hw.nic.ProtectionDomain;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.DmaBuf;
import org.pagefabric.hw.os.DmaBufAttachment;
import org.pagefabric.hw.os.HostStage;
import org.pagefabric.hw.os.InvalidationReason;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.MmuIntervalNotifier;
import org.pagefabric.hw.os.MmuInvalidationCallback;
import org.pagefabric.hw.os.OsCosts;
import org.pagefabric.hw.os.PageTable;
import org.pagefabric.hw.os.PinResult;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.reg.DmaBufRegistrar;
import org.pagefabric.reg.OnDemandPaging;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.reg.Statistic;
import org.pagefabric.sim.collect.IndexedPool;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * The On-Demand Paging driver of one node (001 "Design": ib_core's page-in and invalidation,
 * mlx's fault handling), the {@link PageFaultHandler} its NIC calls.
 *
 * <p><b>Page-in flow.</b> The NIC posts a fault event and raises the driver's interrupt line; the
 * interrupt handler (cost {@code odp.fault.interrupt}, on top of the CPU's delivery and entry
 * costs) drains every queued event and hands each to the per-QP work item on the driver's
 * work-queue thread, which classifies it ({@code odp.fault.event_handling}), reads the region's
 * MMU-notifier sequence, pages the faulting range in with get_user_pages and drops the page
 * references at once (nothing stays pinned; the notifier keeps the NIC coherent), charges
 * {@code odp.fault.page_in} plus the kernel's own fault work, writes the translations
 * ({@code odp.fault.mapping_update}) and resumes the QP ({@code odp.fault.resume}). All of it runs
 * on one core, so faults queue behind each other and behind interrupts.
 *
 * <p><b>Races.</b> The translations are installed only if no invalidation of the region ran since
 * the sequence was read (read_begin/read_retry). If one did, the frames may be stale: the QP is
 * resumed without new translations, retries the access and faults again (001 Backup, "Page-in /
 * Invalidation Races").
 *
 * <p><b>Invalidation flow.</b> Each region subscribes an MMU interval notifier. Its callback zaps
 * the NIC's translation entries for the range before the kernel changes the page tables; the NIC
 * completes in-flight accesses first by construction (each DMA access is one event, see
 * {@link Nic#zap}), and the callback returning is the acknowledgement. Its cost
 * ({@code odp.invalidate.*}) is paid by whoever changed the mapping, in that caller's context:
 * {@link #invalidationPs()} is a running sum callers difference across the call, as they do the
 * kernel's own cost.
 *
 * <p><b>Prefetch</b> ({@code ibv_advise_mr}): synchronous advice runs in the caller's context
 * (page-in and mapping time, then its completion); asynchronous advice is queued to the
 * work-queue thread. At most {@code odp.prefetch.max} bytes per call.
 *
 * <p><b>Accessed bits</b> ({@code odp.access_bits}, 001 "Future work: update PTE accessed/dirty
 * bits according to IO accesses"). Off, reclaim sees only the CPU's accessed bits: a page only
 * the NIC uses looks idle, is swapped out, and the NIC faults it back. On, the NIC sets accessed
 * and dirty bits in the region's entries and the notifier's clear-young reports and clears them,
 * so reclaim's clock spares the pages the NIC uses as it spares those the CPU uses.
 *
 * <p><b>dma-bufs</b> ({@link #register(Endpoint, DmaBuf, long, long, long, int)}): a region over
 * device memory attaches to the buffer dynamically instead of subscribing a notifier
 * (drivers/infiniband/core/umem_dmabuf.c, ib_umem_dmabuf_get with move_notify). The exporter's
 * move_notify zaps the NIC's translation of the whole region (mlx5_ib_dmabuf_invalidate_cb,
 * drivers/infiniband/hw/mlx5/mr.c); a fault maps the whole region again from the attachment's
 * scatter list (ib_umem_dmabuf_map_pages, called by pagefault_dmabuf_mr in mlx5 odp.c), through
 * the same interrupt, work-queue and resume steps, with {@code odp.fault.page_in} standing for
 * dma_buf_map_attachment. A move between the map and the install drops the frames (the
 * buffer's generation stands for the notifier sequence).
 *
 * <p>A fault that cannot be resolved (the address is not mapped in the process, or not with the
 * access the region needs) is counted ({@code unresolvable}) and resumed with an error, as mlx5
 * does: the retried access is refused, so the transfer completes with an access error instead
 * of faulting for ever.
 */
public final class OdpDriver extends Component implements PageFaultHandler, OnDemandPaging, DmaBufRegistrar {
    private static final int IRQ_DONE = 1;
    private static final int HANDLED = 2;
    private static final int PAGED_IN = 3;
    private static final int MAPPED = 4;
    private static final int RESUMED = 5;
    private static final int WRITABLE = AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC;

    private final Nic nic;
    private final Kernel kernel;
    private final OsCosts osCosts;
    private final OdpCosts costs;
    private final InterruptController irqs;
    private final int irq;
    private final CpuThread workQueue;
    private final Map<MemoryRegion, Umem> umems = new HashMap<>();

    private final IndexedPool<Work> works = new IndexedPool<>(Work::new);
    private final ArrayDeque<Work> eventQueue = new ArrayDeque<>();
    private final ArrayList<Work> irqBatch = new ArrayList<>();

    /** One of the driver's statistics, below its component name; the policies' descriptors list the same ones. */
    private record Declared(String name, String unit, String description) {
        Statistic statistic() {
            return new Statistic("<node>.odp." + name, unit, description);
        }
    }

    private static final Declared FAULTS = new Declared("faults", "faults", "page-fault events the driver received");
    private static final Declared RESOLVED = new Declared("resolved", "faults",
            "faults resolved and resumed (with or without new translations)");
    private static final Declared RACES = new Declared("races", "faults",
            "page-ins that lost a race with an invalidation: resumed without mapping");
    private static final Declared UNRESOLVABLE = new Declared("unresolvable", "faults",
            "faults on addresses the process does not map: resumed with an error");
    private static final Declared FOREIGN = new Declared("foreign_faults", "faults",
            "faults on regions this driver did not register");
    private static final Declared PAGES_IN = new Declared("pages_in", "pages", "pages paged in and mapped into the NIC");
    private static final Declared INVALIDATIONS = new Declared("invalidations", "calls",
            "MMU-notifier invalidations that zapped NIC translations");
    private static final Declared INVALIDATED_PAGES = new Declared("invalidated_pages", "pages",
            "NIC translation entries zapped by invalidations");
    private static final Declared PREFETCHES = new Declared("prefetches", "requests", "prefetch (advise_mr) requests served");
    private static final Declared PREFETCH_RACES = new Declared("prefetch_races", "requests",
            "prefetches that lost a race with an invalidation");
    private static final Declared IMPLICIT_CHILDREN = new Declared("implicit_children", "children",
            "children implicit keys created on first fault");
    private static final Declared YOUNG_REPORTS = new Declared("young_reports", "ranges",
            "reclaim's clear-young queries that found pages the NIC used");
    private static final Declared FAULT_TIME = new Declared("fault_time", "ps",
            "from the NIC raising a fault to the driver resuming the QP");

    private static Declared phase(Phase p) {
        return new Declared(phaseStatistic(p), "ps", "time resolved faults spent in phase " + p);
    }

    /** What every node's driver counts, as the ODP policies' descriptors list it. */
    static List<Statistic> statistics() {
        List<Statistic> all = new ArrayList<>();
        for (Declared d : List.of(FAULTS, RESOLVED, RACES, UNRESOLVABLE, FOREIGN, PAGES_IN, INVALIDATIONS,
                INVALIDATED_PAGES, PREFETCHES, PREFETCH_RACES, IMPLICIT_CHILDREN, YOUNG_REPORTS)) {
            all.add(d.statistic());
        }
        for (Phase p : Phase.values()) {
            all.add(phase(p).statistic());
        }
        all.add(FAULT_TIME.statistic());
        return all;
    }

    private final Counter faults;
    private final Counter resolved;
    private final Counter races;
    private final Counter unresolvable;
    private final Counter foreign;
    private final Counter pagesIn;
    private final Counter invalidations;
    private final Counter invalidatedPages;
    private final Counter prefetchRequests;
    private final Counter prefetchRaces;
    private final Counter implicitChildren;
    private final Counter youngReports;
    private final Counter[] phasePs = new Counter[Phase.values().length];
    private final LatencyHistogram faultTime;
    private long invalidationPs;
    /** Host invalidations that zapped NIC entries (in a virtual machine). */
    private Counter hostInvalidations;
    private final Kernel.MappingVisitor zapHostMapping = this::zapHostMapping;

    private OdpDriver(Node node, OdpCosts costs) {
        super(node.simulator(), node, "odp");
        this.nic = node.nic();
        this.kernel = node.kernel();
        this.osCosts = kernel.costs();
        this.costs = costs;
        int core = node.cpu().coreCount() - 1; // the work queue runs where the interrupt was taken
        this.irqs = node.cpu().interrupts();
        this.irq = irqs.register(node.name() + "_odp_eq", core, this::interruptHandler, this, IRQ_DONE);
        this.workQueue = node.cpu().thread(node.name() + ".odp_wq", core);
        HostStage host = node.kernel().hostStage();
        if (host != null && host.subscribeDevice(this::hostInvalidate)) {
            hostInvalidations = counter("host_invalidations", "calls",
                    "host (hypervisor) invalidations of a guest frame that zapped NIC entries");
        }
        faults = counter(FAULTS);
        resolved = counter(RESOLVED);
        races = counter(RACES);
        unresolvable = counter(UNRESOLVABLE);
        foreign = counter(FOREIGN);
        pagesIn = counter(PAGES_IN);
        invalidations = counter(INVALIDATIONS);
        invalidatedPages = counter(INVALIDATED_PAGES);
        prefetchRequests = counter(PREFETCHES);
        prefetchRaces = counter(PREFETCH_RACES);
        implicitChildren = counter(IMPLICIT_CHILDREN);
        youngReports = counter(YOUNG_REPORTS);
        for (Phase p : Phase.values()) {
            phasePs[p.ordinal()] = counter(phase(p));
        }
        faultTime = latency(FAULT_TIME.name(), FAULT_TIME.description());
        nic.setPageFaultHandler(this);
        if (costs.accessBits()) {
            nic.setAccessBits(true);
        }
    }

    private Counter counter(Declared d) {
        return counter(d.name(), d.unit(), d.description());
    }

    /** The name of the statistic of {@code phase}'s time, below the driver's. */
    static String phaseStatistic(Phase phase) {
        return "fault_" + phase.name().toLowerCase(java.util.Locale.ROOT) + "_ps";
    }

    /**
     * The node's driver, created and installed on its NIC on first use; every policy and
     * workload on the node shares it, as one kernel module serves every process.
     *
     * @throws IllegalStateException if the NIC already has another page-fault handler
     */
    public static OdpDriver attach(Node node, Profile profile) {
        OdpDriver d = of(node);
        if (d != null) {
            return d;
        }
        if (!profile.flag(OdpParameters.SUPPORTED)) {
            throw new PolicyRefusal("on-demand paging needs a NIC that takes page faults; profile " + profile.name()
                    + " has none (odp.supported: false)");
        }
        if (node.nic().pageFaultHandler() != null) {
            throw new IllegalStateException(node.name() + ": the NIC already has a page-fault handler");
        }
        return new OdpDriver(node, OdpCosts.of(profile));
    }

    /** The node's driver, or null if none is attached. */
    public static OdpDriver of(Node node) {
        return node.nic().pageFaultHandler() instanceof OdpDriver d ? d : null;
    }

    // ---------------------------------------------------------------- registration

    /**
     * Registers an explicit ODP region ({@code IBV_ACCESS_ON_DEMAND}): nothing pinned, nothing
     * translated; an MMU interval notifier subscribed over the range.
     */
    @Override
    public MemoryRegion register(AddressSpace process, ProtectionDomain pd, long address, long length, int access) {
        MemoryRegion mr = nic.registerOnDemand(pd, address, length, access, false);
        watch(mr, process, address, length);
        return mr;
    }

    /**
     * Registers an implicit ODP region: the whole user address space, up front. Translation
     * metadata grows with what is faulted in, not with the region's size.
     */
    public MemoryRegion registerImplicit(AddressSpace process, ProtectionDomain pd, int access) {
        MemoryRegion mr = nic.registerOnDemand(pd, 0, PageTable.USER_TOP, access, true);
        watch(mr, process, 0, PageTable.USER_TOP);
        return mr;
    }

    /**
     * Registers {@code [offset, offset + length)} of a dma-buf at {@code iova} as an on-demand
     * region with a dynamic attachment: nothing mapped until the NIC faults, every move of the
     * buffer zaps the whole region.
     */
    @Override
    public Registration register(Endpoint rank, DmaBuf buf, long offset, long length, long iova, int access) {
        DmaBufRegistrar.checkRegion(buf, offset, length, iova);
        MemoryRegion mr = nic.registerOnDemand(rank.pd(), iova, length, access, false);
        Umem u = new Umem(mr, null, (access & WRITABLE) != 0);
        u.bufferPage = offset / Kernel.PAGE_SIZE;
        u.attachment = buf.attach(a -> moveNotify(u));
        umems.put(mr, u);
        return new Registration(mr, costs.registerPs());
    }

    /** move_notify: zap the whole region's translations; the next access faults and re-maps. */
    private long moveNotify(Umem u) {
        long before = invalidationPs;
        invalidate(u, u.mr.address(), u.mr.address() + u.mr.length(), InvalidationReason.MIGRATE);
        return invalidationPs - before;
    }

    private void watch(MemoryRegion mr, AddressSpace process, long address, long length) {
        Umem u = new Umem(mr, process, (mr.access() & WRITABLE) != 0);
        u.notifier = process.subscribe(address, Math.max(length, 1), new MmuInvalidationCallback() {
            @Override
            public void invalidate(MmuIntervalNotifier sub, long start, long end, InvalidationReason reason, long seq) {
                OdpDriver.this.invalidate(u, start, end, reason);
            }

            @Override
            public boolean clearYoung(MmuIntervalNotifier sub, long start, long end) {
                return costs.accessBits() && reportYoung(u, start, end);
            }
        });
        umems.put(mr, u);
    }

    /** Deregisters a region this driver registered: its notifier goes, its keys stop working. */
    public void deregister(MemoryRegion mr) {
        Umem u = umems.remove(mr);
        if (u == null) {
            throw new IllegalArgumentException(mr + " was not registered by " + name());
        }
        if (u.attachment != null) {
            u.attachment.detach();
        } else {
            u.notifier.remove();
        }
        nic.deregister(mr);
    }

    /** Cost of registering one on-demand region (no pinning, no translations written). */
    public long registerPs() {
        return costs.registerPs();
    }

    /** The costs in use. */
    public OdpCosts costs() {
        return costs;
    }

    // ---------------------------------------------------------------- invalidation

    private void invalidate(Umem u, long start, long end, InvalidationReason reason) {
        long zapped = nic.zap(u.mr, start, end - start);
        if (zapped > 0) {
            invalidations.increment();
            invalidatedPages.add(zapped);
            invalidationPs += costs.invalidate(zapped);
        }
    }

    /**
     * The hypervisor takes guest frame {@code gfn}: the NIC's entries for it hold its machine
     * frame, so every page mapping it in a region this driver registered is zapped, as a guest
     * invalidation would; the next access faults and pages it in beneath the guest's fault.
     */
    private void hostInvalidate(long gfn) {
        long before = invalidatedPages.value();
        kernel.forEachMapping(gfn, zapHostMapping);
        if (invalidatedPages.value() != before) {
            hostInvalidations.increment();
        }
    }

    private void zapHostMapping(AddressSpace as, long va) {
        for (Umem u : umems.values()) {
            if (u.process == as && va >= u.mr.address() && va - u.mr.address() < u.mr.length()) {
                invalidate(u, va, va + Kernel.PAGE_SIZE, InvalidationReason.RECLAIM);
            }
        }
    }

    private boolean reportYoung(Umem u, long start, long end) {
        boolean young = nic.clearAccessed(u.mr, start, end - start);
        if (young) {
            youngReports.increment();
        }
        return young;
    }

    /**
     * Driver time spent in invalidations so far, picoseconds: the caller of a mapping change
     * (munmap, madvise, reclaim, migration) spends the difference across its call.
     */
    @Override
    public long invalidationPs() {
        return invalidationPs;
    }

    // ---------------------------------------------------------------- page faults

    @Override
    public void pageFault(Nic from, PageFault fault) {
        faults.increment();
        Umem u = umems.get(fault.region());
        if (u == null) {
            foreign.increment();
            return;
        }
        Work w = works.take();
        w.fault = fault;
        w.umem = u;
        w.raised = fault.raisedPs();
        eventQueue.addLast(w);
        irqs.raise(irq, 0);
    }

    /** The interrupt handler: takes every queued fault event (the line coalesces raises). */
    private long interruptHandler(int type, long arg) {
        while (!eventQueue.isEmpty()) {
            irqBatch.add(eventQueue.pollFirst());
        }
        return costs.interruptPs();
    }

    @Override
    public boolean prefetch(Nic from, MemoryRegion region, long address, long length, int flags, Completion done) {
        Umem u = umems.get(region);
        if (u == null) {
            return false;
        }
        prefetchRequests.increment();
        Work w = works.take();
        w.prefetch = true;
        w.sync = AdviseMrFlags.synchronous(flags);
        w.done = done;
        w.umem = u;
        w.raised = sim.now();
        long len = Math.min(length, costs.prefetchMaxBytes());
        long va = address & -Kernel.PAGE_SIZE;
        int pages = (int) (((address + Math.max(len, 1) - 1) >>> PhysicalMemory.PAGE_SHIFT) - (va >>> PhysicalMemory.PAGE_SHIFT) + 1);
        if ((flags & AdviseMrFlags.PREFETCH_NO_FAULT) != 0) {
            pages = residentPrefix(u, va, pages);
        }
        step(w, pageIn(w, va, pages), PAGED_IN);
        return true;
    }

    /** Pages from {@code va} already present with the access the region needs (PREFETCH_NO_FAULT). */
    private int residentPrefix(Umem u, long va, int pages) {
        long need = Pte.PRESENT | (u.writable ? Pte.WRITABLE : Pte.READABLE);
        if (u.attachment != null) {
            return pages; // device memory is always there: the exporter keeps it
        }
        int n = 0;
        while (n < pages && (u.process.translate(va + n * Kernel.PAGE_SIZE) & need) == need) {
            n++;
        }
        return n;
    }

    @Override
    public void handle(int type, long arg) {
        if (type == IRQ_DONE) {
            for (Work w : irqBatch) {
                w.irqDone = sim.now();
                workQueue.run(costs.eventHandlingPs(), this, HANDLED, w.slot);
            }
            irqBatch.clear();
            return;
        }
        Work w = works.get((int) arg);
        switch (type) {
            case HANDLED -> {
                w.handled = sim.now();
                PageFault f = w.fault;
                long va = f.address() & -Kernel.PAGE_SIZE;
                long end = f.address() + Math.max(f.length(), 1);
                if (!f.region().implicit()) {
                    end = Math.min(end, f.region().address() + f.region().length());
                }
                int pages = (int) Math.min(Integer.MAX_VALUE, ((end - 1) >>> PhysicalMemory.PAGE_SHIFT) - (va >>> PhysicalMemory.PAGE_SHIFT) + 1);
                long cost = pageIn(w, va, pages);
                if (w.frames == null) {
                    unresolvable.increment();
                    nic.fail(w.fault);
                    release(w);
                    return;
                }
                step(w, cost, PAGED_IN);
            }
            case PAGED_IN -> {
                w.pagedIn = sim.now();
                step(w, w.frames == null ? 0 : costs.mapping(w.frames.length), MAPPED);
            }
            case MAPPED -> {
                w.mapped = sim.now();
                install(w);
                if (w.prefetch) {
                    if (w.done != null) {
                        w.done.complete();
                    }
                    release(w);
                } else {
                    step(w, costs.resumePs(), RESUMED);
                }
            }
            case RESUMED -> {
                if (nic.resume(w.fault)) {
                    resolved.increment();
                    long now = sim.now();
                    phasePs[Phase.INTERRUPT.ordinal()].add(w.irqDone - w.raised);
                    phasePs[Phase.EVENT_HANDLING.ordinal()].add(w.handled - w.irqDone);
                    phasePs[Phase.PAGE_IN.ordinal()].add(w.pagedIn - w.handled);
                    phasePs[Phase.MAPPING_UPDATE.ordinal()].add(w.mapped - w.pagedIn);
                    phasePs[Phase.RESUME.ordinal()].add(now - w.mapped);
                    faultTime.record(now - w.raised);
                }
                release(w);
            }
            default -> throw new IllegalArgumentException("unknown ODP driver event " + type);
        }
    }

    /** Runs the next step on the work-queue thread, or in the caller's context for a synchronous prefetch. */
    private void step(Work w, long costPs, int next) {
        if (w.sync) {
            schedule(costPs, next, w.slot);
        } else {
            workQueue.run(costPs, this, next, w.slot);
        }
    }

    /**
     * Reads the notifier sequence, pages {@code pages} pages from {@code va} in and drops the
     * references again (ODP keeps no pin); remembers the frames in {@code w}.
     *
     * @return the time it takes: the driver's page-in cost plus the kernel's fault work
     */
    private long pageIn(Work w, long va, int pages) {
        w.va = va;
        w.frames = null;
        if (pages <= 0) {
            return 0;
        }
        if (w.umem.attachment != null) {
            return mapDmaBuf(w);
        }
        w.seq = w.umem.notifier.readBegin();
        PinResult r = kernel.getUserPages(w.umem.process, va, pages, w.umem.writable);
        int got = r.pinned();
        for (int i = 0; i < got; i++) {
            kernel.putPage(r.frames()[i]);
        }
        if (got == 0) {
            return 0;
        }
        w.frames = got == r.frames().length ? r.frames() : Arrays.copyOf(r.frames(), got);
        long faultWork = Math.max(0, r.costPs() - osCosts.gupBasePs() - got * osCosts.gupPerPagePs());
        return costs.pageIn(unmappedPages(w.umem.mr, va, got)) + faultWork;
    }

    /**
     * The whole region's frames from the attachment's scatter list, whatever range faulted, as
     * ib_umem_dmabuf_map_pages maps the whole umem; the buffer's generation is read first.
     */
    private long mapDmaBuf(Work w) {
        Umem u = w.umem;
        MemoryRegion mr = u.mr;
        if (!mr.valid()) {
            return 0; // deregistered since the fault: resumed with an error
        }
        int pages = (int) mr.pageCount();
        w.va = mr.address();
        w.seq = u.attachment.generation();
        w.frames = u.attachment.map(u.bufferPage, pages);
        return costs.pageIn(unmappedPages(mr, mr.address(), pages));
    }

    /**
     * Pages of {@code [va, va + pages)} whose NIC entry is not present: only those are DMA-mapped
     * (ib_umem_odp skips pages it already maps), so a prefetch of a mapped range costs little.
     */
    private static int unmappedPages(MemoryRegion mr, long va, int pages) {
        long first = (va >>> PhysicalMemory.PAGE_SHIFT) - mr.firstPage();
        int n = 0;
        for (int i = 0; i < pages; i++) {
            if ((mr.table().get(first + i) & Pte.PRESENT) == 0) {
                n++;
            }
        }
        return n;
    }

    /** Installs the paged-in translations unless an invalidation raced the page-in. */
    private void install(Work w) {
        if (w.frames == null) {
            return;
        }
        MemoryRegion mr = w.umem.mr;
        Umem u = w.umem;
        boolean stale = u.attachment != null ? u.attachment.generation() != w.seq
                : u.notifier.removed() || u.notifier.readRetry(w.seq);
        if (!mr.valid() || stale) {
            (w.prefetch ? prefetchRaces : races).increment();
            return;
        }
        nic.mapPages(mr, w.va, w.frames);
        pagesIn.add(w.frames.length);
        if (mr.implicit()) {
            long first = w.va / costs.implicitChildBytes();
            long last = (w.va + (long) w.frames.length * Kernel.PAGE_SIZE - 1) / costs.implicitChildBytes();
            for (long c = first; c <= last; c++) {
                if (w.umem.children.add(c)) {
                    implicitChildren.increment();
                }
            }
        }
    }


    private void release(Work w) {
        w.fault = null;
        w.umem = null;
        w.frames = null;
        w.done = null;
        w.prefetch = false;
        w.sync = false;
        works.release(w);
    }

    // ---------------------------------------------------------------- what it measured

    /** Faults resolved (resumed) so far. */
    @Override
    public long resolvedFaults() {
        return resolved.value();
    }

    /** Picoseconds resolved faults spent in {@code phase} so far. */
    @Override
    public long phasePs(Phase phase) {
        return phasePs[phase.ordinal()].value();
    }

    /** Page-ins that lost a race with an invalidation so far. */
    public long races() {
        return races.value();
    }

    /** Faults left unresolved because the process does not map the address. */
    public long unresolvable() {
        return unresolvable.value();
    }

    /** Pages mapped into the NIC so far. */
    public long pagesIn() {
        return pagesIn.value();
    }

    /** NIC translation entries zapped by invalidations so far. */
    public long invalidatedPages() {
        return invalidatedPages.value();
    }

    /** Children created by implicit regions so far. */
    public long implicitChildren() {
        return implicitChildren.value();
    }

    /** The umem of one region: its process, notifier and the implicit children it created. */
    private static final class Umem {
        final MemoryRegion mr;
        final AddressSpace process;
        final boolean writable;
        final LongHashSet children = new LongHashSet();
        MmuIntervalNotifier notifier;
        /** For a dma-buf region: its dynamic attachment and the buffer page it starts at. */
        DmaBufAttachment attachment;
        long bufferPage;

        Umem(MemoryRegion mr, AddressSpace process, boolean writable) {
            this.mr = mr;
            this.process = process;
            this.writable = writable;
        }
    }

    /** One fault or prefetch being resolved; reused through a free list. */
    private static final class Work {
        final int slot;
        PageFault fault;
        Umem umem;
        Completion done;
        boolean prefetch;
        boolean sync;
        long seq;
        long va;
        long[] frames;
        long raised;
        long irqDone;
        long handled;
        long pagedIn;
        long mapped;

        Work(int slot) {
            this.slot = slot;
        }
    }
}
