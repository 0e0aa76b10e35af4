package org.pagefabric.hw.iommu;

import org.pagefabric.hw.cpu.InterruptController;
import org.pagefabric.hw.os.HostStage;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * An IOMMU on the path between a device and host memory, translating the device's (domain,
 * virtual address) accesses over the process page tables (shared virtual addressing).
 *
 * <p><b>Translation</b> ({@link #translate}), costs summed into the result: internal
 * processing; the context (context cache lookup, and a context fetch on a miss or without a
 * cache); the IOTLB levels probed; on a miss, a page-table walk of one memory access per level,
 * whose present result fills the IOTLB. The leaf's permissions are then checked: no present
 * leaf is {@link FaultReason#NOT_PRESENT}, a write needs W, a device read needs R. An
 * {@link AccessInterceptor}, if set, sees every translation of a bound domain with the PTE word
 * and may absorb the access. Translation is synchronous: the caller (the NIC) adds the cost to
 * its own timeline; the IOTLB is filled at the instant of the call.
 *
 * <p><b>Faults</b> terminate the access (the device gets an error response, e.g. an AXI
 * NACK). The domain's context bank records the fault in its registers; the fault is appended
 * to the fault log (dropped and counted when the ring is full); a logged fault raises the
 * fault interrupt, once its log write is done, through the CPU's interrupt controller, with
 * the domain as argument. A faulting leaf is dropped from the IOTLB, as a CPU drops the TLB
 * entry of a faulting address, so that a retry after the kernel fixed the mapping walks again.
 *
 * <p><b>Invalidation</b> (TLB shootdown when the kernel changes mappings) by page, range,
 * domain or everything; each returns the cost of the invalidation command for the caller.
 */
public final class Iommu extends Component {
    private static final int EV_FAULT_INTERRUPT = 0;
    private static final int EV_PAGE_REQUEST = 1;
    private static final long HUGE_OFFSET_MASK = (1L << Iotlb.HUGE_SHIFT) - 1;
    private static final long PAGE_OFFSET_MASK = (1L << Iotlb.PAGE_SHIFT) - 1;

    private final IommuConfig config;
    private final IommuCosts costs;
    private final ContextBank[] banks;
    private final IotlbLevel contextCache;
    private final Iotlb iotlb;
    private final PageTableWalker walker;
    private final WalkSlots walkSlots;
    private final FaultLog faultLog;
    private final Translation scratch = new Translation();
    private AccessInterceptor interceptor;
    /** The hypervisor's second stage in nested mode, else null. */
    private HostStage host;
    private Counter nestedReferences;
    private InterruptController interruptController;
    private int faultIrq = -1;
    /** Page requests (PCIe PRI) waiting for the OS, or null until a driver enables them. */
    private PageRequestQueue pageRequests;
    private InterruptController pageRequestController;
    private int pageRequestIrq = -1;

    private final Counter translations;
    private final Counter[] levelHits;
    private final Counter misses;
    private final Counter faults;
    private final Counter faultsLogged;
    private final Counter faultLogOverflows;
    private final Counter absorbed;
    private final Counter invalidations;
    private final Counter contextMisses;
    private final LatencyHistogram translationCost;

    /** An IOMMU named {@code parent.localName}, e.g. {@code node3.iommu}. */
    public Iommu(Simulator sim, Component parent, String localName, IommuConfig config, IommuCosts costs) {
        super(sim, parent, localName);
        if (config == null || costs == null) {
            throw new IllegalArgumentException("IOMMU " + name() + " needs its configuration and costs");
        }
        this.config = config;
        this.costs = costs;
        this.banks = new ContextBank[config.contextBanks()];
        this.iotlb = new Iotlb(config.iotlbLevels(), sim.randomStream(name() + ".iotlb"));
        this.contextCache = config.contextCache() == null ? null
                : new IotlbLevel(config.contextCache(), sim.randomStream(name() + ".contextCache"));
        this.walker = new PageTableWalker(costs.walkAccessPs());
        this.walkSlots = new WalkSlots(config.concurrentWalks());
        this.faultLog = new FaultLog(config.faultLogCapacity());
        translations = counter("translations", "requests", "translation requests");
        levelHits = new Counter[iotlb.levelCount()];
        for (int i = 0; i < levelHits.length; i++) {
            levelHits[i] = counter("iotlb.l" + (i + 1) + ".hits", "requests", "hits in IOTLB level " + (i + 1));
        }
        misses = counter("iotlb.misses", "requests", "requests that missed every IOTLB level and walked");
        faults = counter("faults", "faults", "translations that faulted");
        faultsLogged = counter("faultLog.logged", "entries", "faults written to the fault log");
        faultLogOverflows = counter("faultLog.overflows", "entries", "faults lost to a full fault log");
        absorbed = counter("absorbed", "requests", "accesses taken by the access interceptor");
        invalidations = counter("invalidations", "commands", "invalidation commands");
        contextMisses = counter("contextCache.misses", "requests", "context fetches from memory");
        translationCost = latency("translationCost", "cost of each translation request");
    }

    /** A top-level IOMMU. */
    public Iommu(Simulator sim, String name, IommuConfig config, IommuCosts costs) {
        this(sim, null, name, config, costs);
    }

    /**
     * Binds domain {@code pdid} to a process page table in a free context bank.
     *
     * @throws IllegalStateException if the domain is bound or every bank is in use
     */
    public ContextBank bind(int pdid, ProcessPageTable pageTable) {
        if (pageTable == null) {
            throw new IllegalArgumentException("domain " + pdid + " needs a page table");
        }
        Iotlb.key(pdid, 0, false); // validates the domain id
        if (bank(pdid) != null) {
            throw new IllegalStateException("domain " + pdid + " is already bound on " + name());
        }
        for (int i = 0; i < banks.length; i++) {
            if (banks[i] == null) {
                banks[i] = new ContextBank(pdid, i, pageTable);
                return banks[i];
            }
        }
        throw new IllegalStateException("all " + banks.length + " context banks of " + name() + " are in use");
    }

    /** Unbinds a domain, invalidating its cached context and translations; returns the cost. */
    public long unbind(int pdid) {
        ContextBank bank = bank(pdid);
        if (bank == null) {
            throw new IllegalStateException("domain " + pdid + " is not bound on " + name());
        }
        banks[bank.index()] = null;
        if (contextCache != null) {
            contextCache.invalidate(pdid);
        }
        return invalidateDomain(pdid);
    }

    /** The context bank of a domain, or null if it is not bound. */
    public ContextBank bank(int pdid) {
        for (ContextBank b : banks) {
            if (b != null && b.pdid() == pdid) {
                return b;
            }
        }
        return null;
    }

    /**
     * Nested translation (Intel VT-d scalable-mode nested, Arm SMMUv3 stage 1 + 2): the process
     * page table's entries hold guest-physical frames, and every guest-physical address a walk
     * reads, each table pointer and the final frame, is translated through {@code stage}'s
     * table. A walk of g guest levels over h host levels reads g(h + 1) + h entries, 24 for 4 + 4
     * (Bhargava et al., ASPLOS 2008, two-dimensional page walks). A final guest frame with no
     * machine frame is a host fault beneath the device's access: the walk waits while the
     * hypervisor backs it (SMMUv3's stall model for stage 2; assumed, no IOMMU here reports it to
     * the guest). The IOTLB then caches the combined translation, so the hypervisor must flush it
     * when it changes its table.
     *
     * @throws IllegalStateException if already nested
     */
    public void nest(HostStage stage) {
        if (host != null) {
            throw new IllegalStateException(name() + " is already nested");
        }
        host = stage;
        nestedReferences = counter("nested.references", "reads",
                "table entries read by nested walks, guest and host levels together");
    }

    /** Installs the access interceptor (null removes it). */
    public void setInterceptor(AccessInterceptor interceptor) {
        this.interceptor = interceptor;
    }

    /** Routes the fault interrupt to line {@code irq} of a CPU's interrupt controller. */
    public void connectFaultInterrupt(InterruptController controller, int irq) {
        this.interruptController = controller;
        this.faultIrq = irq;
    }

    /**
     * Translates one access into {@code out}.
     *
     * @return whether the access may proceed ({@link Translation#OK})
     */
    public boolean translate(int pdid, long va, boolean write, Translation out) {
        return translate(pdid, va, write, out, false);
    }

    /**
     * Answers a device's ATS Translation Request (PCIe ATS; Linux enables it with SVA,
     * drivers/iommu/iommu-sva.c): the same context, IOTLB and walk as {@link #translate}, but a
     * leaf that does not allow the access is an answer, not a fault: no fault record, log entry
     * or interrupt. The device then asks for the page with a Page Request ({@link #pageRequest}).
     *
     * @return whether the translation allows the access; else {@link Translation#fault()} says why
     */
    public boolean translateForDevice(int pdid, long va, boolean write, Translation out) {
        return translate(pdid, va, write, out, true);
    }

    private boolean translate(int pdid, long va, boolean write, Translation out, boolean forDevice) {
        out.reset();
        translations.increment();
        long cost = costs.processingPs();
        ContextBank bank;
        if (contextCache != null) {
            cost += contextCache.config().lookupPs();
            int slot = contextCache.lookup(pdid);
            if (slot >= 0) {
                bank = banks[(int) contextCache.value(slot)];
            } else {
                contextMisses.increment();
                cost += costs.contextFetchPs();
                bank = bank(pdid);
                if (bank != null) {
                    contextCache.insert(pdid, bank.index());
                }
            }
        } else {
            contextMisses.increment();
            cost += costs.contextFetchPs();
            bank = bank(pdid);
        }
        out.costPs = cost;
        if (bank == null) {
            fault(null, pdid, va, write, FaultReason.NO_CONTEXT, out);
            return false;
        }
        long pte = iotlb.lookup(pdid, va);
        out.costPs += iotlb.lastLookupPs();
        if (pte != 0) {
            out.hitLevel = iotlb.lastHitLevel();
            levelHits[out.hitLevel].increment();
        } else {
            misses.increment();
            pte = walker.walk(bank.pageTable(), va);
            out.levelsWalked = walker.lastLevels();
            long walkPs = host == null ? walker.lastCostPs() : nestedWalkPs(pte, va);
            // A miss asked for at now + the lookup so far waits for a walk slot before walking.
            out.costPs += walkSlots.reserve(sim.now() + out.costPs, walkPs) + walkPs;
            if (Pte.has(pte, Pte.PRESENT)) {
                iotlb.fill(pdid, va, pte);
            }
        }
        out.pte = pte;
        FaultReason reason = check(pte, write);
        if (interceptor != null) {
            int decision = interceptor.intercept(bank, va, write, pte, reason, out);
            if (decision == AccessInterceptor.ABSORB) {
                out.outcome = Translation.ABSORBED;
                absorbed.increment();
                translationCost.record(out.costPs);
                return false;
            }
            if (decision != AccessInterceptor.PROCEED) {
                throw new IllegalStateException("access interceptor returned " + decision + ", not PROCEED or ABSORB");
            }
        }
        if (reason == null) {
            long offsetMask = Pte.has(pte, Pte.HUGE) ? HUGE_OFFSET_MASK : PAGE_OFFSET_MASK;
            out.physicalAddress = ((Pte.frame(pte) << Iotlb.PAGE_SHIFT) & ~offsetMask) | (va & offsetMask);
            translationCost.record(out.costPs);
            return true;
        }
        if (Pte.has(pte, Pte.PRESENT)) {
            iotlb.invalidatePage(pdid, va);
        }
        if (forDevice) {
            out.outcome = Translation.FAULT;
            out.fault = reason;
            translationCost.record(out.costPs);
            return false;
        }
        fault(bank, pdid, va, write, reason, out);
        return false;
    }

    /** The nested part of a walk: host levels per guest level read, then the leaf's frame, and its host fault. */
    private long nestedWalkPs(long pte, long va) {
        int h = host.walkLevels();
        boolean present = Pte.has(pte, Pte.PRESENT);
        long refs = (long) walker.lastLevels() * (h + 1) + (present ? h : 0);
        nestedReferences.add(refs);
        long ps = refs * costs.walkAccessPs();
        if (present) {
            long gfn = Pte.frame(pte) + (Pte.has(pte, Pte.HUGE) ? (va & HUGE_OFFSET_MASK) >>> Iotlb.PAGE_SHIFT : 0);
            ps += host.fault(gfn);
        }
        return ps;
    }

    /**
     * Translates one access into a holder owned by this IOMMU, valid until its next call: for
     * tests and callers that do not keep results.
     */
    public Translation translate(int pdid, long va, boolean write) {
        translate(pdid, va, write, scratch);
        return scratch;
    }

    private static FaultReason check(long pte, boolean write) {
        if (!Pte.has(pte, Pte.PRESENT)) {
            return FaultReason.NOT_PRESENT;
        }
        if (write) {
            return Pte.has(pte, Pte.WRITABLE) ? null : FaultReason.WRITE_PROTECTED;
        }
        return Pte.has(pte, Pte.READABLE) ? null : FaultReason.READ_PROTECTED;
    }

    private void fault(ContextBank bank, int pdid, long va, boolean write, FaultReason reason, Translation out) {
        faults.increment();
        out.outcome = Translation.FAULT;
        out.fault = reason;
        if (bank != null) {
            bank.recordFault(va, write, reason);
        }
        boolean logged = faultLog.append(sim.now(), pdid, va, write, reason);
        out.logged = logged;
        if (logged) {
            faultsLogged.increment();
            out.costPs += costs.faultLogWritePs();
            if (interruptController != null) {
                schedule(out.costPs, Band.HARDWARE, EV_FAULT_INTERRUPT, pdid);
            }
        } else {
            faultLogOverflows.increment();
        }
        translationCost.record(out.costPs);
    }

    /**
     * Accepts Page Requests (PCIe PRI) into a queue of {@code capacity} entries, whose arrivals
     * raise line {@code irq} of {@code controller}: the page-request queue Linux's IOMMU drivers
     * read and hand to the I/O page-fault queue (drivers/iommu/io-pgfault.c).
     *
     * @throws IllegalStateException if page requests are already enabled
     */
    public void enablePageRequests(int capacity, InterruptController controller, int irq) {
        if (pageRequests != null) {
            throw new IllegalStateException(name() + " already accepts page requests");
        }
        this.pageRequests = new PageRequestQueue(capacity);
        this.pageRequestController = controller;
        this.pageRequestIrq = irq;
    }

    /** The page-request queue, or null while page requests are not enabled. */
    public PageRequestQueue pageRequests() {
        return pageRequests;
    }

    /**
     * A device's Page Request for the page of {@code va} in domain (PASID) {@code pdid}, reaching
     * the IOMMU {@code delayPs} from now; its arrival raises the page-request interrupt.
     *
     * @param last whether it ends its Page Request Group
     * @return false if the queue is full (the request is lost: the device asks again) or not enabled
     */
    public boolean pageRequest(int pdid, long va, boolean write, boolean last, long delayPs) {
        if (pageRequests == null || !pageRequests.append(sim.now() + delayPs, pdid, va, write, last)) {
            return false;
        }
        schedule(delayPs, Band.HARDWARE, EV_PAGE_REQUEST, pdid);
        return true;
    }

    /** Raises the fault interrupt once the fault's log entry is written, or the page-request one. */
    @Override
    public void handle(int type, long arg) {
        switch (type) {
            case EV_FAULT_INTERRUPT -> interruptController.raise(faultIrq, arg);
            case EV_PAGE_REQUEST -> pageRequestController.raise(pageRequestIrq, arg);
            default -> throw new IllegalStateException("unknown event type " + type);
        }
    }

    /** Invalidates the translation of one page of a domain; returns the command's cost. */
    public long invalidatePage(int pdid, long va) {
        iotlb.invalidatePage(pdid, va);
        invalidations.increment();
        return costs.invalidationPs();
    }

    /** Invalidates a domain's translations overlapping {@code [va, va + length)}; returns the cost. */
    public long invalidateRange(int pdid, long va, long length) {
        iotlb.invalidateRange(pdid, va, length);
        invalidations.increment();
        return costs.invalidationPs();
    }

    /** Invalidates every translation of a domain; returns the cost. */
    public long invalidateDomain(int pdid) {
        iotlb.invalidateDomain(pdid);
        invalidations.increment();
        return costs.invalidationPs();
    }

    /** Invalidates every translation and cached context; returns the cost. */
    public long invalidateAll() {
        iotlb.invalidateAll();
        if (contextCache != null) {
            contextCache.clear();
        }
        invalidations.increment();
        return costs.invalidationPs();
    }

    /** The fault log, which the driver drains. */
    public FaultLog faultLog() {
        return faultLog;
    }

    /** The IOTLB. */
    public Iotlb iotlb() {
        return iotlb;
    }

    /** The page-table walker. */
    public PageTableWalker walker() {
        return walker;
    }

    /** The structure. */
    public IommuConfig config() {
        return config;
    }

    /** The costs. */
    public IommuCosts costs() {
        return costs;
    }

    /** Hits in IOTLB level {@code level} (0 is L1) so far. */
    public long hits(int level) {
        return levelHits[level].value();
    }

    /** Requests that missed every IOTLB level so far. */
    public long misses() {
        return misses.value();
    }

    /** Translations so far. */
    public long translations() {
        return translations.value();
    }

    /** Faults so far. */
    public long faults() {
        return faults.value();
    }
}
