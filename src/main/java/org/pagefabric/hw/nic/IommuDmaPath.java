package org.pagefabric.hw.nic;

import java.util.List;
import org.agrona.collections.LongHashSet;
import org.pagefabric.hw.iommu.Iommu;
import org.pagefabric.hw.iommu.Iotlb;
import org.pagefabric.hw.iommu.Translation;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.hw.net.Packet;
import org.pagefabric.hw.net.SinkVerdict;
import org.pagefabric.sim.stat.Counter;

/**
 * The NIC's DMA path through the node's IOMMU, for regions registered with
 * {@link AccessFlags#IOMMU} (PART's shared virtual addressing, 000 §III-B; the seam Active
 * Access's extended entries use too, through the IOMMU's
 * {@link org.pagefabric.hw.iommu.AccessInterceptor}).
 *
 * <p>Every page of an access is translated by {@link Iommu#translate} with the region's
 * protection domain as PDID: IOTLB levels, page-table walk over the process page table, and on
 * a fault the IOMMU's own fault record and fault interrupt. A refused access moves nothing:
 * <ul>
 *   <li>a destination write (AXI NACK) is logged in the {@link NiFaultFifo}; if it was logged
 *       and the NI answers faults ({@link #setNackOnFault}), the transport sends a PAGE_FAULT
 *       NACK, which cancels the source's time-out until software asks for the block again with
 *       {@link #requestRetransmission}; otherwise the packet is dropped and the source's
 *       time-out recovers the block (000 §V, Fig. 9's time-out variants);
 *   <li>a source read is logged too (software pages the page in), and the packet is not sent:
 *       the source's time-out recovers the block (000 §IV, "RDMA page fault at the source").
 * </ul>
 *
 * <p><b>Time.</b> Packet accesses are timed: UD datagrams (a send's payload read, a receive's
 * placement) and RC packets (payload reads of writes, sends and read responses; placements of
 * writes, sends and read responses). A timed translation passes the {@link TranslationStage}
 * (an IOTLB hit's latency overlaps with other packets; a walk, at the profile's cost per level
 * read, stalls the packets behind it), and the data is ready only when its translation is
 * ({@link #readyAt()}): a packet leaves, and the transport ACKs a placed packet and delivers the
 * message it ends, only then. That time is counted in {@code iommu_translation_charged_ps}. Only
 * atomics' 8-byte accesses are counted ({@code iommu_translation_uncharged_ps}) without being
 * spent in virtual time.
 *
 * <p><b>ATS/PRI</b> ({@link #enableAts}): the NIC then keeps an {@link AddressTranslationCache}
 * keyed by (PASID, page), the PASID being the domain bound to the process's address space. A
 * page found there costs an ATC lookup; a miss sends an ATS Translation Request (a PCIe round
 * trip plus the IOMMU's own translation, {@link Iommu#translateForDevice}) and caches a
 * translation that allows the access. One that does not (not present, read-only) is no fault:
 * the NIC sends a Page Request Group to the IOMMU's queue, for that page and the following pages
 * of the same message, as many as its Outstanding Page Request Allocation leaves room for (a
 * page stays requested until the OS's PRG Response comes back, {@link #pageResponse}), and
 * refuses the access: a placement is answered
 * RECEIVER_NOT_READY, so the requester backs off and retries, and its retry sends a new
 * Translation Request; a payload read stalls its queue pair's send until the PRG Response for
 * the page arrives, and the read is then tried again with a new Translation Request (PCIe Base
 * Specification §10.4.2, Page Request Group Response Message: Success lets the function retry
 * its translation; Linux drivers/iommu/iommu-sva.c, iommu_sva_handle_iopf, answers each group
 * with iopf_group_response once iommu_sva_handle_mm has faulted its pages). A read that faults
 * again on the page its stall was just answered for (the OS could not make it present: an
 * Invalid Request response) is left to the source's time-out and retry limit instead. An
 * Invalidate Request ({@link #invalidateDevice}) clears the range from the ATC and completes
 * only once every access already admitted has reached memory.
 */
public final class IommuDmaPath {
    private final Nic nic;
    private final Iommu iommu;
    private final NiFaultFifo fifo;
    private final Translation translation = new Translation();
    private final Counter translationPs;
    private final Counter chargedPs;
    private final TranslationStage stage = new TranslationStage();
    private long readyAt;
    private final Counter destinationFaults;
    private final Counter sourceFaults;
    private final Counter absorbed;
    private boolean nackOnFault = true;
    private long faultAddress;
    private boolean lastAbsorbed;
    private org.pagefabric.hw.iommu.aa.ActiveAccessUnit activeUnit;
    /** The device's ATS side, or null while the NIC sends untranslated requests only. */
    private AtsCosts ats;
    private AddressTranslationCache atc;
    /** Pages (IOTLB keys) with a Page Request sent and no PRG Response yet. */
    private LongHashSet pendingPages;
    private Counter atcHits;
    private Counter atcMisses;
    private Counter pageRequests;
    private Counter pageRequestsLost;
    private Counter notReady;
    private Counter invalidateRequests;
    private Counter invalidatedEntries;
    private Counter invalidationWaitPs;
    private Counter sendStalls;
    /** Queue pairs whose send waits for a PRG Response: the page's IOTLB key and the QP number, {@code stalledCount} of each. */
    private long[] stalledPage = new long[4];
    private int[] stalledQpn = new int[4];
    private int stalledCount;
    /** End of the message whose packet is being translated (see {@link #beginPacket}), or 0: how far a Page Request Group may reach. */
    private long messageEnd;

    IommuDmaPath(Nic nic, Iommu iommu, int fifoEntries) {
        this.nic = nic;
        this.iommu = iommu;
        this.fifo = new NiFaultFifo(fifoEntries);
        var stats = nic.simulator().statistics();
        String n = nic.name() + ".";
        this.translationPs = stats.counter(n + "iommu_translation_uncharged_ps", "ps",
                "IOMMU translation time of atomics' DMA accesses, not spent in virtual time");
        this.chargedPs = stats.counter(n + "iommu_translation_charged_ps", "ps",
                "IOMMU translation time of timed DMA accesses (UD datagrams, RC packets), spent in virtual time");
        this.destinationFaults = stats.counter(n + "iommu_destination_faults", "packets",
                "packet writes the IOMMU refused (AXI NACKs)");
        this.sourceFaults = stats.counter(n + "iommu_source_faults", "packets", "packet reads the IOMMU refused");
        this.absorbed = stats.counter(n + "iommu_absorbed", "packets", "packet accesses an access interceptor took");
    }

    /** The IOMMU every access of an IOMMU-translated region goes through. */
    public Iommu iommu() {
        return iommu;
    }

    /** The NI FIFO of refused accesses, which the fault tasklet reads. */
    public NiFaultFifo fifo() {
        return fifo;
    }

    /**
     * Whether a logged destination fault is answered with a PAGE_FAULT NACK (true, PART with
     * explicit retransmission requests) or the packet is dropped for the source's time-out.
     */
    public void setNackOnFault(boolean nack) {
        this.nackOnFault = nack;
    }

    /** Whether logged destination faults are NACKed. */
    public boolean nackOnFault() {
        return nackOnFault;
    }

    /**
     * Asks the source of message {@code messageId} on queue pair {@code qpn} to retransmit block
     * {@code block} (an Explicit Retransmission Request, sent by the NI on software's behalf).
     *
     * @return false if the message is no longer in progress
     */
    public boolean requestRetransmission(int qpn, long messageId, int block) {
        QueuePair qp = nic.queuePair(qpn);
        return qp.receiver != null && qp.receiver.requestRetransmission(messageId, block);
    }

    /**
     * Installs Active Access's IOMMU extension (002 §3): it becomes the IOMMU's access
     * interceptor, and every packet this path moves is announced to it first, so that it can log
     * put data, replicate get replies and hold packets back when a log is full.
     */
    public void attachActiveAccess(org.pagefabric.hw.iommu.aa.ActiveAccessUnit unit) {
        this.activeUnit = unit;
        iommu.setInterceptor(unit);
    }

    /**
     * The counters a NIC keeps once ATS is on, below its component name, in the order
     * {@link #enableAts} binds them; a policy that reports them lists these declarations.
     */
    public static final List<Nic.DeclaredCounter> ATS_COUNTERS = List.of(
            new Nic.DeclaredCounter("ats.atc_hits", "pages", "page translations found in the Address Translation Cache"),
            new Nic.DeclaredCounter("ats.atc_misses", "pages", "page translations that sent an ATS Translation Request"),
            new Nic.DeclaredCounter("ats.page_requests", "requests",
                    "Page Requests (PRI) sent for pages not present or not writable"),
            new Nic.DeclaredCounter("ats.page_requests_lost", "requests",
                    "Page Requests not sent: the page-request queue was full"),
            new Nic.DeclaredCounter("ats.send_stalls", "packets",
                    "payload reads whose queue pair's send waited for a PRG Response"),
            new Nic.DeclaredCounter("ats.not_ready", "packets",
                    "placements answered RECEIVER_NOT_READY while their page was requested"),
            new Nic.DeclaredCounter("ats.invalidate_requests", "requests", "ATS Invalidate Requests the device completed"),
            new Nic.DeclaredCounter("ats.invalidated_entries", "entries", "ATC entries the Invalidate Requests removed"),
            new Nic.DeclaredCounter("ats.invalidation_wait_ps", "ps",
                    "time from Invalidate Requests to their completions, in-flight accesses drained"));

    /**
     * Turns on the NIC's PCIe ATS and PRI: translations come from its Address Translation Cache,
     * filled by Translation Requests, and pages that are not present are asked for with Page
     * Requests to the IOMMU's queue (which a driver must have enabled, {@link Iommu#enablePageRequests}).
     *
     * @throws IllegalStateException if ATS is already on, or Active Access's extension is installed
     */
    public void enableAts(AtsCosts costs) {
        if (ats != null) {
            throw new IllegalStateException(nic.name() + " already translates through ATS");
        }
        if (activeUnit != null) {
            throw new IllegalStateException(nic.name() + " carries Active Access's IOMMU extension; ATS would bypass it");
        }
        this.ats = costs;
        this.atc = new AddressTranslationCache(costs, nic.simulator().randomStream(nic.name() + ".atc"));
        this.pendingPages = new LongHashSet();
        var stats = nic.simulator().statistics();
        String n = nic.name() + ".";
        Counter[] c = new Counter[ATS_COUNTERS.size()];
        for (int i = 0; i < c.length; i++) {
            Nic.DeclaredCounter d = ATS_COUNTERS.get(i);
            c[i] = stats.counter(n + d.name(), d.unit(), d.description());
        }
        atcHits = c[0];
        atcMisses = c[1];
        pageRequests = c[2];
        pageRequestsLost = c[3];
        sendStalls = c[4];
        notReady = c[5];
        invalidateRequests = c[6];
        invalidatedEntries = c[7];
        invalidationWaitPs = c[8];
    }

    /** Whether the NIC translates through ATS. */
    public boolean atsEnabled() {
        return ats != null;
    }

    /** The ATS costs, or null while ATS is off. */
    public AtsCosts atsCosts() {
        return ats;
    }

    /** Page translations served by the ATC so far (0 while ATS is off). */
    public long atcHits() {
        return atcHits == null ? 0 : atcHits.value();
    }

    /** Page translations that missed the ATC so far (0 while ATS is off). */
    public long atcMisses() {
        return atcMisses == null ? 0 : atcMisses.value();
    }

    /** Page Requests sent so far (0 while ATS is off). */
    public long pageRequestsSent() {
        return pageRequests == null ? 0 : pageRequests.value();
    }

    /** Payload reads that stalled their queue pair's send on a Page Request so far (0 while ATS is off). */
    public long sendStalls() {
        return sendStalls == null ? 0 : sendStalls.value();
    }

    /**
     * The PRG Response for the page of {@code va} in {@code pasid} has reached the device: the
     * page may be requested again, and the next access sends a new Translation Request.
     *
     * @return whether a request for that page was outstanding
     */
    public boolean pageResponse(int pasid, long va) {
        if (pendingPages == null) {
            return false;
        }
        long key = Iotlb.key(pasid, va & -PhysicalMemory.PAGE_SIZE, false);
        for (int i = stalledCount - 1; i >= 0; i--) {
            if (stalledPage[i] == key) {
                QueuePair qp = nic.queuePair(stalledQpn[i]);
                stalledCount--;
                stalledPage[i] = stalledPage[stalledCount];
                stalledQpn[i] = stalledQpn[stalledCount];
                qp.atsResumedPage = key;
                qp.sender.resume();
            }
        }
        return pendingPages.remove(key);
    }

    /** Stalls {@code qp}'s send until the response for the page of {@code key}. */
    private void stall(QueuePair qp, long key) {
        if (stalledCount == stalledPage.length) {
            stalledPage = java.util.Arrays.copyOf(stalledPage, stalledCount * 2);
            stalledQpn = java.util.Arrays.copyOf(stalledQpn, stalledCount * 2);
        }
        stalledPage[stalledCount] = key;
        stalledQpn[stalledCount++] = qp.qpn();
        sendStalls.increment();
    }

    /**
     * The frame the ATC translates the page of {@code va} in {@code pasid} to, or -1 if it holds
     * no entry (or ATS is off); it does not touch the replacement order.
     */
    public long cachedFrame(int pasid, long va) {
        long pte = atc == null ? 0 : atc.peek(pasid, va);
        return pte == 0 ? -1 : AddressTranslationCache.frame(pte, va);
    }

    /** When every access admitted so far has reached memory or is available: none is in flight after it. */
    public long inFlightUntil() {
        return stage.lastReady();
    }

    /** Whether a Page Request for the page of {@code va} in {@code pasid} awaits its response. */
    public boolean pageRequestPending(int pasid, long va) {
        return pendingPages != null && pendingPages.contains(Iotlb.key(pasid, va & -PhysicalMemory.PAGE_SIZE, false));
    }

    /**
     * An ATS Invalidate Request for {@code [va, va + length)} of {@code pasid}, sent now (by the
     * OS's MMU notifier, after it invalidated the IOMMU): the range leaves the ATC when it
     * arrives, and the device completes it once every access it already admitted has reached
     * memory (PCIe ATS: the completion is the device's promise that no DMA through the old
     * translations follows; the device cannot tell which in-flight accesses hit the range, so it
     * waits for all of them).
     *
     * @return the time from now to the Invalidation Completion reaching the IOMMU, or 0 without ATS
     */
    public long invalidateDevice(int pasid, long va, long length) {
        if (ats == null || length <= 0) {
            return 0;
        }
        // Removed at once: nothing can translate through the range between now and the request's arrival,
        // because the caller changes the page table in the same instant and a refill would walk the new one.
        return invalidated(atc.invalidate(pasid, va, length));
    }

    /**
     * An ATS Invalidate Request for every entry, sent by the hypervisor when it changes its
     * second-stage table under a guest ({@code vm.nested}). The ATC caches combined translations
     * keyed by guest address, so any entry may end on the machine frame that changed, and the
     * host's IOMMU driver flushes the device TLBs of every ATS-enabled device in the domain
     * (Linux arm-smmu-v3 {@code arm_smmu_atc_inv_domain} on stage-2 unmaps; VT-d device-TLB
     * invalidation in {@code iommu_flush_dev_iotlb}). Completion as {@link #invalidateDevice}.
     *
     * @return the time from now to the Invalidation Completion reaching the IOMMU, or 0 without ATS
     */
    public long invalidateDeviceAll() {
        return ats == null ? 0 : invalidated(atc.invalidateAll());
    }

    private long invalidated(int removed) {
        long now = nic.simulator().now();
        long drained = Math.max(now + ats.invalidationRequestPs(), stage.lastReady());
        long wait = drained + ats.invalidationCompletionPs() - now;
        invalidateRequests.increment();
        invalidatedEntries.add(removed);
        invalidationWaitPs.add(wait);
        return wait;
    }

    /** Announces a packet of message {@code p.messageId} on {@code qpn} before its DMA (Active Access). */
    void beginPacket(int qpn, Packet p, long messageAddress, long messageLength) {
        messageEnd = messageAddress + messageLength;
        if (activeUnit != null) {
            activeUnit.beginPacket(qpn, p.messageId, messageAddress, (int) Math.min(messageLength, Integer.MAX_VALUE),
                    (int) p.offset, p, p.length);
        }
    }

    /** A packet announced by {@link #beginPacket} was read from memory: its reply passes the IOMMU. */
    void readDone(Packet p) {
        if (activeUnit != null) {
            activeUnit.readReply(p);
        }
    }

    /** Refused packet writes so far. */
    public long destinationFaults() {
        return destinationFaults.value();
    }

    /** Refused packet reads so far. */
    public long sourceFaults() {
        return sourceFaults.value();
    }

    // ------------------------------------------------------------------ DMA engine side

    /**
     * Translates {@code pages} pages from {@code va} into {@code frames}; a timed access passes
     * the translation stage, and {@link #readyAt()} then says when its data is ready.
     *
     * @param timed whether the caller spends the translation time (else it is only counted)
     * @return false at the first page refused (then {@link #faultAddress()} names it) or taken
     *         by the interceptor ({@link #lastAbsorbed()})
     */
    boolean translate(MemoryRegion mr, long va, int pages, boolean write, long[] frames, boolean timed) {
        if (ats != null) {
            return translateAts(mr.pd().id(), va, pages, write, frames, timed);
        }
        int pdid = mr.pd().id();
        long first = va >>> PhysicalMemory.PAGE_SHIFT;
        lastAbsorbed = false;
        long cost = 0;
        boolean walked = false;
        for (int i = 0; i < pages; i++) {
            long at = Math.max(va, (first + i) << PhysicalMemory.PAGE_SHIFT);
            boolean ok = iommu.translate(pdid, at, write, translation);
            // The pages of one access are translated one after another.
            cost += translation.costPs();
            walked |= translation.hitLevel() < 0;
            if (!ok) {
                account(cost, walked, timed);
                faultAddress = at;
                if (translation.outcome() == Translation.ABSORBED) {
                    lastAbsorbed = true;
                    absorbed.increment();
                }
                return false;
            }
            frames[i] = translation.frame();
        }
        account(cost, walked, timed);
        return true;
    }

    /**
     * ATS translation of {@code pages} pages from {@code va}: the ATC, else a Translation Request
     * (which holds the stage as a walk does: the access waits for its completion); a page the
     * IOMMU does not allow is asked for with a Page Request and refuses the access.
     */
    private boolean translateAts(int pasid, long va, int pages, boolean write, long[] frames, boolean timed) {
        long first = va >>> PhysicalMemory.PAGE_SHIFT;
        lastAbsorbed = false;
        long cost = 0;
        boolean requested = false;
        for (int i = 0; i < pages; i++) {
            long at = Math.max(va, (first + i) << PhysicalMemory.PAGE_SHIFT);
            long pte = atc.lookup(pasid, at);
            cost += ats.atcLookupPs();
            if (AddressTranslationCache.allows(pte, write)) {
                atcHits.increment();
                frames[i] = AddressTranslationCache.frame(pte, at);
                continue;
            }
            atcMisses.increment();
            requested = true;
            boolean ok = iommu.translateForDevice(pasid, at, write, translation);
            cost += ats.translationRequestPs() + translation.costPs();
            if (ok) {
                atc.fill(pasid, at, translation.pte());
                frames[i] = translation.frame();
                continue;
            }
            account(cost, true, timed);
            faultAddress = at;
            requestPages(pasid, at, write);
            messageEnd = 0;
            return false;
        }
        account(cost, requested, timed);
        messageEnd = 0;
        return true;
    }

    /**
     * Sends one Page Request Group: the page of {@code va} and the following pages of the current
     * message that are not requested yet, while the outstanding allocation has room.
     */
    private void requestPages(int pasid, long va, boolean write) {
        long page = va & -PhysicalMemory.PAGE_SIZE;
        long end = Math.max(messageEnd, page + 1);
        // The whole group fits the queue or none of it is sent: the OS answers a group only once its last request came.
        var queue = iommu.pageRequests();
        int room = Math.min(ats.outstandingPageRequests() - pendingPages.size(), queue == null ? 0 : queue.free());
        int group = 0;
        long lastPage = -1;
        for (long p = page; p < end && group < room; p += PhysicalMemory.PAGE_SIZE) {
            if (!pendingPages.contains(Iotlb.key(pasid, p, false))) {
                group++;
                lastPage = p;
            }
        }
        if (group == 0) {
            if (queue == null || queue.free() == 0) {
                pageRequestsLost.increment();
            }
            return;
        }
        for (long p = page; p <= lastPage; p += PhysicalMemory.PAGE_SIZE) {
            if (pendingPages.add(Iotlb.key(pasid, p, false))) {
                iommu.pageRequest(pasid, p, write, p == lastPage, ats.pageRequestPs());
                pageRequests.increment();
            }
        }
    }

    private void account(long cost, boolean walked, boolean timed) {
        if (timed) {
            chargedPs.add(cost);
            readyAt = stage.admit(nic.simulator().now(), cost, walked);
        } else {
            translationPs.add(cost);
        }
    }

    /** After a timed translation: when the access's data reaches memory or is available. */
    long readyAt() {
        return readyAt;
    }

    /** After a refused translation: the first address refused. */
    long faultAddress() {
        return faultAddress;
    }

    /** After a refused translation: whether an access interceptor took the access. */
    boolean lastAbsorbed() {
        return lastAbsorbed;
    }

    // ------------------------------------------------------------------ NIC side

    /** A packet write to {@code messageAddress + p.offset} was refused: log it and answer. */
    SinkVerdict writeRefused(QueuePair qp, MemoryRegion mr, Packet p, long messageAddress) {
        if (ats != null) {
            // the page is requested (PRI): the requester backs off and its retry translates again
            notReady.increment();
            destinationFaults.increment();
            return SinkVerdict.RECEIVER_NOT_READY;
        }
        if (lastAbsorbed) {
            // held back by a full access log: PCIe backpressure, the source retries; else the log took the data
            return activeUnit != null && activeUnit.stalled() ? SinkVerdict.RECEIVER_NOT_READY : SinkVerdict.ACCEPT;
        }
        destinationFaults.increment();
        boolean logged = fifo.log(qp.qpn(), mr.pd().id(), p.messageId, p.block, messageAddress, p.messageLength,
                faultAddress, true, nic.simulator().now());
        return logged && nackOnFault ? SinkVerdict.PAGE_FAULT : SinkVerdict.DROP;
    }

    /**
     * A packet read of message {@code p.messageId} from a buffer at {@code messageAddress} was refused.
     *
     * @return whether {@code qp}'s send stalls until {@link #pageResponse} resumes it; otherwise
     *         the source's time-out resends the packet
     */
    boolean readRefused(QueuePair qp, MemoryRegion mr, Packet p, long messageAddress, long messageLength) {
        if (lastAbsorbed) {
            return false; // a get held back by a full access log: not sent, the source's time-out asks again
        }
        sourceFaults.increment();
        if (ats != null) {
            long key = Iotlb.key(mr.pd().id(), faultAddress & -PhysicalMemory.PAGE_SIZE, false);
            boolean answeredInVain = qp.atsResumedPage == key;
            qp.atsResumedPage = -1;
            // Only a page with its request outstanding gets a response to wait for (a full queue sent none).
            if (!answeredInVain && pendingPages.contains(key)) {
                stall(qp, key);
                return true;
            }
            return false;
        }
        fifo.log(qp.qpn(), mr.pd().id(), p.messageId, p.block, messageAddress, messageLength, faultAddress, false,
                nic.simulator().now());
        return false;
    }
}
