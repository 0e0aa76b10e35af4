package org.pagefabric.hw.nic;

import java.util.ArrayList;
import java.util.List;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.hw.net.Packet;
import org.pagefabric.hw.net.PacketSink;
import org.pagefabric.hw.net.PayloadSource;
import org.pagefabric.hw.net.SinkVerdict;
import org.pagefabric.hw.net.TransportConfig;
import org.pagefabric.hw.net.TransportEndpoint;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.stat.Counter;

/**
 * An RDMA NIC: protection domains, memory regions and their translation tables, queue pairs,
 * and the DMA engine that moves bytes between the wire and host memory through those
 * translations.
 *
 * <p>It is hardware: it never pins, faults or unpins anything itself. Registration policies
 * (package {@code reg}) pin pages or resolve faults and install translations with
 * {@link #mapPages}; invalidations remove them with {@link #zap}. A translation the NIC holds is
 * what it uses, so a stale one writes into the frame the page used to map, and the integrity
 * check of the transfer sees corruption.
 *
 * <p>Every access through a key is checked (key, protection domain, bounds, access rights). A
 * refused access moves no data, completes with an access error and is counted by reason.
 *
 * <p><b>Translation cache.</b> Entries are looked up in a {@link TranslationCache}; a miss costs
 * {@link NicCosts#translationMissPs()}. The transport's payload reads and placements are
 * synchronous, so the cost is spent in virtual time only where the NIC controls timing: when it
 * starts a write or send, it looks up the pages of the message's first packet (the first MTU of
 * the local buffer) and posts the message to the transport only after those misses have been
 * fetched, one after another. Misses on later packets, on the responder side, on read responses
 * and on UD receives are counted ({@code translation_miss_uncharged_ps}) but cost no time.
 *
 * <p><b>On-demand paging (001).</b> A region registered {@link AccessFlags#ON_DEMAND} may have
 * non-present entries; an access to one raises a {@link PageFault} to the installed
 * {@link PageFaultHandler} (the driver), at most one requester and one responder fault per QP:
 * <ul>
 *   <li>requester: before a message starts, every page of its local buffer must be mapped
 *       (writable, if the NIC writes it: reads and atomics); if not, the message stays at the
 *       head of the send queue, the fault is raised and the send queue is suspended until the
 *       driver {@linkplain #resume(PageFault) resumes} it, when the message is checked again
 *       (and may fault again). A page zapped under a message already started faults on the
 *       packet that reads it: the packet is not sent and the transport's time-out resends it.
 *   <li>responder: an RC request to a non-present page (write or send packet, the whole range of
 *       a read, an atomic) is answered RECEIVER_NOT_READY, and so is every request to the QP
 *       until its fault is resumed, even if the page was mapped meanwhile by another QP's
 *       fault; the requester's transport backs off and retries. UD drops the datagram.
 * </ul>
 * A non-present entry in a pinned region is a model bug (a policy forgot a page): it is counted
 * ({@code unmapped_pinned}) and refused, never raised as a fault.
 *
 * <p><b>Invalidation.</b> {@link #zap} takes effect between packets: each DMA access runs in
 * one event, so an invalidation never cuts one in half, which is the guarantee "HW will
 * complete all in-flight memory accesses to an invalidated range before completing the
 * invalidation" (001) gives. Accesses after it fault normally.
 *
 * <p><b>Structure.</b> This class is the verbs facade (domains, regions, translations, queue
 * pairs, faults, advice) and the event dispatcher; the work is done by package-private parts
 * with one job each: the {@link Requester} (send queues, packetization, UD departure), the
 * {@link Responder} (placement, read and atomic answers, RNR on faults), {@link Completions}
 * (completion entries in posting order) and {@link AccessRefusals} (refusal counts, faults on
 * non-present entries). Events stay addressed to the NIC, so the parts add no handler of their
 * own: the event stream (and its trace) is the NIC's.
 */
public final class Nic extends Component {
    /**
     * A counter every NIC declares below its component name; a policy that reports one lists
     * this declaration rather than a copy of its name and meaning.
     *
     * @param name        the counter's name below the NIC's
     * @param unit        what it counts
     * @param description what an increment means
     */
    public record DeclaredCounter(String name, String unit, String description) {
    }

    private static final DeclaredCounter MW_BINDS = new DeclaredCounter("mw.binds", "requests",
            "memory-window binds (BIND_MW) that took effect");
    private static final DeclaredCounter MW_INVALIDATIONS = new DeclaredCounter("mw.invalidations", "requests",
            "memory-window invalidations (LOCAL_INV) that took effect");
    private static final DeclaredCounter MW_FAILED = new DeclaredCounter("mw.failed", "requests",
            "BIND_MW and LOCAL_INV requests that failed");
    private static final DeclaredCounter MW_REFUSED = new DeclaredCounter("mw.refused", "accesses",
            "remote accesses through a memory window's key refused (revoked, stale, out of bounds or rights)");

    /** The memory-window counters: binds, invalidations and failures that took effect, accesses refused. */
    public static final List<DeclaredCounter> MEMORY_WINDOW_COUNTERS =
            List.of(MW_BINDS, MW_INVALIDATIONS, MW_FAILED, MW_REFUSED);

    /** A posted request has been fetched (arg: qpn): start the send queue's ready messages. */
    static final int START = 1;
    /** A response's DMA read has started: hand the oldest response to the transport. */
    static final int RESPOND = 2;
    /** A completion entry has been written: the oldest one lands in its queue. */
    static final int COMPLETE = 3;
    /** The translation misses of a send queue's head message have been fetched (arg: qpn). */
    static final int TRANSLATED = 4;
    /** A UD datagram's last bit has left (arg: qpn). */
    static final int DEPARTED = 5;
    /** A resumed send queue has fetched its head request again (arg: qpn). */
    static final int RESUMED = 6;
    /** A UD datagram's payload read has been translated by the IOMMU (arg: qpn): it may leave. */
    static final int DATAGRAM_READ = 7;
    /** A UD receive's IOMMU-translated placement has reached memory: its completion lands. */
    static final int LANDED = 8;
    /** A request posted with a waiter has its completion written: the oldest waiter is told. */
    static final int NOTIFIED = 9;

    private final int node;
    private final NicCosts costs;
    private final TransportEndpoint endpoint;
    private final KeyTable keys;
    private final List<QueuePair> qps = new ArrayList<>();
    private int nextPd = 1;

    private final Counter prefetches;
    private final TranslationCache cache;
    private final PhysicalMemory memory;
    private final DmaEngine dma;
    private final PageFaultUnit faults;
    private final AccessRefusals refusals;
    private final Completions completions;
    private final Requester requester;
    private final Responder responder;
    private final WindowOps windows;
    private final Counter windowRefused;
    /** DMA through the node's IOMMU (PART, Active Access), or null: see {@link #attachIommu}. */
    private IommuDmaPath iommuPath;


    /**
     * A NIC on node {@code node} whose translation cache is not modelled (translation is free).
     *
     * @param memory   the host's physical memory, which its DMA engine reads and writes
     * @param endpoint the node's attachment to the network's transport
     */
    public Nic(Simulator sim, Component parent, String localName, int node, NicCosts costs, PhysicalMemory memory,
               TransportEndpoint endpoint) {
        this(sim, parent, localName, node, costs, memory, endpoint, null);
    }

    /**
     * A NIC on node {@code node}.
     *
     * @param memory   the host's physical memory, which its DMA engine reads and writes
     * @param endpoint the node's attachment to the network's transport
     * @param cache    the translation cache's shape, or null to leave it unmodelled (free translation)
     */
    public Nic(Simulator sim, Component parent, String localName, int node, NicCosts costs, PhysicalMemory memory,
               TransportEndpoint endpoint, TranslationCacheConfig cache) {
        this(sim, parent, localName, node, costs, memory, endpoint, cache, KeyTable.DEFAULT_TAG_BITS);
    }

    /**
     * A NIC on node {@code node} whose memory keys carry {@code keyTagBits} random tag bits.
     *
     * @param memory     the host's physical memory, which its DMA engine reads and writes
     * @param endpoint   the node's attachment to the network's transport
     * @param cache      the translation cache's shape, or null to leave it unmodelled (free translation)
     * @param keyTagBits bits of each key drawn at random at registration ({@link KeyTable})
     */
    public Nic(Simulator sim, Component parent, String localName, int node, NicCosts costs, PhysicalMemory memory,
               TransportEndpoint endpoint, TranslationCacheConfig cache, int keyTagBits) {
        super(sim, parent, localName);
        this.node = node;
        this.memory = memory;
        this.costs = costs;
        this.endpoint = endpoint;
        this.keys = new KeyTable(random(), keyTagBits);
        // Counters are declared in this order (statistics list them as declared), then handed to the parts.
        Counter[] refused = new Counter[AccessCheck.values().length];
        for (AccessCheck c : AccessCheck.values()) {
            if (c != AccessCheck.OK) {
                refused[c.ordinal()] = counter("refused." + c.name().toLowerCase(java.util.Locale.ROOT), "accesses",
                        "accesses refused: " + c.name());
            }
        }
        Counter messages = counter("messages", "messages", "messages started by this NIC");
        Counter unmappedPinned = counter("unmapped_pinned", "accesses",
                "accesses refused because a pinned region's entry was not present (a model bug)");
        Counter udNoReceive = counter("ud_dropped_no_receive", "datagrams", "UD datagrams dropped: no receive posted");
        Counter udNotPresent = counter("ud_dropped_not_present", "datagrams",
                "UD datagrams dropped: target page not present, or the responder suspended on a fault");
        Counter udReceived = counter("ud_received", "datagrams", "UD datagrams placed into a receive");
        prefetches = counter("prefetches", "requests", "prefetch advice passed to the page-fault handler");
        this.cache = new TranslationCache(cache, sim.randomStream(name() + ".translation_cache"),
                counter("translation_cache_hits", "lookups", "translation lookups that hit the NIC's cache"),
                counter("translation_cache_misses", "lookups", "translation lookups that read the translation table"));
        this.dma = new DmaEngine(memory, this.cache, costs.translationMissPs(),
                counter("dma_read_bytes", "bytes", "bytes the DMA engine read from host memory"),
                counter("dma_write_bytes", "bytes", "bytes the DMA engine wrote to host memory"),
                counter("translation_faults", "packets", "accesses to a non-present translation entry"),
                counter("translation_miss_uncharged_ps", "ps",
                        "PCIe read time of translation misses on synchronous DMA paths, not spent in virtual time"));
        this.faults = new PageFaultUnit(this);
        this.refusals = new AccessRefusals(refused, unmappedPinned, faults);
        this.completions = new Completions(this, costs);
        this.windows = new WindowOps(keys, refusals, counter(MW_BINDS), counter(MW_INVALIDATIONS), counter(MW_FAILED));
        Counter windowRefused = counter(MW_REFUSED);
        this.requester = new Requester(this, costs, endpoint, keys, dma, faults, refusals, completions, messages,
                windows);
        this.responder = new Responder(this, costs, keys, dma, refusals, completions, udNoReceive, udNotPresent,
                udReceived, windowRefused);
        this.windowRefused = windowRefused;
    }

    private Counter counter(DeclaredCounter d) {
        return counter(d.name(), d.unit(), d.description());
    }

    /** The node this NIC sits in. */
    public int node() {
        return node;
    }

    /** The key table. */
    public KeyTable keys() {
        return keys;
    }

    /** Accesses refused for {@code reason} so far. */
    public long refused(AccessCheck reason) {
        return refusals.refused(reason);
    }

    /** All refused accesses so far. */
    public long refusedTotal() {
        return refusals.total();
    }

    /** Allocates a protection domain. */
    public ProtectionDomain allocatePd(String label) {
        return new ProtectionDomain(nextPd++, label);
    }

    /**
     * Registers a region whose pages are already pinned: {@code frames[i]} backs page {@code i}
     * of the region. Entries are writable if the region may be written.
     */
    public MemoryRegion registerPinned(ProtectionDomain pd, long address, long length, int access, long[] frames) {
        MemoryRegion mr = keys.register(pd, address, length, access, false);
        if (frames.length != mr.pageCount()) {
            keys.deregister(mr);
            throw new IllegalArgumentException(frames.length + " frames for a region of " + mr.pageCount() + " pages");
        }
        mapPages(mr, address & ~((1L << PhysicalMemory.PAGE_SHIFT) - 1), frames);
        if (cache.hugeEntries() && backedByHugeBlocks(mr.firstPage(), frames, memory)) {
            mr.setEntryShift(HUGE_ENTRY_SHIFT);
        }
        return mr;
    }

    /** log2 of the 4 KiB pages in a 2 MiB translation entry. */
    static final int HUGE_ENTRY_SHIFT = 9;

    /**
     * Whether every 2 MiB-aligned block of the pages from virtual page {@code firstPage} maps one
     * 2 MiB page, equally aligned (4 KiB pages that happen to lie contiguous do not count: the
     * model's frame allocator hands them out in order far more often than a real one does): then the driver describes the region
     * with 2 MiB entries (ib_umem_find_best_pgsz, drivers/infiniband/core/umem.c, picks the
     * largest page size the physical layout allows) and the NIC caches one entry per block.
     */
    static boolean backedByHugeBlocks(long firstPage, long[] frames, PhysicalMemory memory) {
        long mask = (1L << HUGE_ENTRY_SHIFT) - 1;
        for (int i = 0; i < frames.length; i++) {
            long vpage = firstPage + i;
            if ((frames[i] & mask) != (vpage & mask) || !memory.inHugePage(frames[i])) {
                return false;
            }
            if (i > 0 && (vpage & mask) != 0 && frames[i] != frames[i - 1] + 1) {
                return false;
            }
        }
        return true;
    }

    // ---------------------------------------------------------------- memory windows

    /** Allocates an unbound type-2 memory window in {@code pd} ({@code ibv_alloc_mw}, {@code IBV_MW_TYPE_2}). */
    public MemoryWindow allocateWindow(ProtectionDomain pd) {
        return keys.allocateWindow(pd);
    }

    /** Returns a window ({@code ibv_dealloc_mw}); its key stops working at once. */
    public void deallocateWindow(MemoryWindow mw) {
        keys.deallocateWindow(mw);
    }

    /**
     * Sets what a {@link Opcode#BIND_MW} and a {@link Opcode#LOCAL_INV} request cost the NIC
     * beyond fetching the request ({@link NicCosts#wqeProcessingPs()}); 0 until set.
     */
    public void setWindowCosts(long bindPs, long invalidatePs) {
        windows.setCosts(bindPs, invalidatePs);
    }

    /** Remote accesses through a memory window's key refused so far. */
    public long windowRefusals() {
        return windowRefused.value();
    }

    // ---------------------------------------------------------------- IOMMU path (PART)

    /**
     * Puts the node's IOMMU on the NIC's DMA path for regions registered with
     * {@link #registerVirtual}; refused accesses are logged in an NI FIFO of {@code fifoEntries}.
     *
     * @throws IllegalStateException if an IOMMU is already attached
     */
    public IommuDmaPath attachIommu(org.pagefabric.hw.iommu.Iommu iommu, int fifoEntries) {
        if (iommuPath != null) {
            throw new IllegalStateException(name() + " already translates through " + iommuPath.iommu().name());
        }
        iommuPath = new IommuDmaPath(this, iommu, fifoEntries);
        dma.setIommuPath(iommuPath);
        return iommuPath;
    }

    /** The IOMMU path, or null if the NIC translates only through its own tables. */
    public IommuDmaPath iommuPath() {
        return iommuPath;
    }

    /**
     * Registers a region whose addresses the IOMMU translates with the domain's id as PDID
     * ({@link AccessFlags#IOMMU}): nothing is pinned and the NIC holds no entries for it.
     *
     * @throws IllegalStateException if no IOMMU is attached
     */
    public MemoryRegion registerVirtual(ProtectionDomain pd, long address, long length, int access) {
        if (iommuPath == null) {
            throw new IllegalStateException(name() + " has no IOMMU on its DMA path (profile parameter nic.iommu)");
        }
        return keys.register(pd, address, length, (access | AccessFlags.IOMMU) & ~AccessFlags.ON_DEMAND, false);
    }

    /** The queue pair numbered {@code qpn}. */
    QueuePair queuePair(int qpn) {
        return qps.get(qpn);
    }

    /** Registers a region without translations: pages are mapped on demand ({@link AccessFlags#ON_DEMAND}). */
    public MemoryRegion registerOnDemand(ProtectionDomain pd, long address, long length, int access, boolean implicit) {
        return keys.register(pd, address, length, access | AccessFlags.ON_DEMAND, implicit);
    }

    /**
     * Installs translations for consecutive pages from {@code pageAddress} (page aligned). Cached
     * copies of these entries take the new values (the update goes through the NIC).
     */
    public void mapPages(MemoryRegion mr, long pageAddress, long[] frames) {
        boolean writable = (mr.access() & (AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC)) != 0;
        long first = (pageAddress >>> PhysicalMemory.PAGE_SHIFT) - mr.firstPage();
        long flags = Pte.PRESENT | Pte.READABLE | (writable ? Pte.WRITABLE : 0);
        for (int i = 0; i < frames.length; i++) {
            long entry = Pte.withFrame(flags, frames[i]);
            mr.table().set(first + i, entry);
            cache.update(mr, first + i, entry);
        }
    }

    /**
     * Removes translations of {@code [address, address + length)} (an invalidation), from the
     * table and the translation cache; returns how many were present.
     *
     * <p>It waits for in-flight accesses to the range by construction: every DMA access runs
     * within one event, so the invalidation takes effect between packets. A message in flight
     * whose later packets reach the range faults on them (RC responder: RNR; RC requester: the
     * packet is not sent and the transport resends it after its time-out; UD: dropped).
     */
    public long zap(MemoryRegion mr, long address, long length) {
        long firstPage = Math.max(address >>> PhysicalMemory.PAGE_SHIFT, mr.firstPage());
        long endPage = (address + length + (1L << PhysicalMemory.PAGE_SHIFT) - 1) >>> PhysicalMemory.PAGE_SHIFT;
        if (endPage <= firstPage) {
            return 0;
        }
        cache.invalidate(mr, firstPage - mr.firstPage(), endPage - firstPage);
        return mr.table().zap(firstPage - mr.firstPage(), endPage - firstPage);
    }

    /**
     * Makes DMA accesses to on-demand regions set the accessed bit (and for writes the dirty bit)
     * of the entries they use, for a driver that reports them to the kernel's reclaim (001 "Future
     * work": update PTE accessed/dirty bits according to IO accesses). Off by default.
     */
    public void setAccessBits(boolean on) {
        dma.setAccessBits(on);
    }

    /**
     * Tests and clears the accessed bits of the present entries of {@code [address, address +
     * length)}: whether any page was accessed since the last call (the dirty bits stay).
     */
    public boolean clearAccessed(MemoryRegion mr, long address, long length) {
        long firstPage = Math.max(address >>> PhysicalMemory.PAGE_SHIFT, mr.firstPage());
        long endPage = Math.min((address + length + (1L << PhysicalMemory.PAGE_SHIFT) - 1) >>> PhysicalMemory.PAGE_SHIFT,
                mr.firstPage() + mr.pageCount());
        boolean young = false;
        TranslationTable t = mr.table();
        for (long p = firstPage - mr.firstPage(); p < endPage - mr.firstPage(); p++) {
            long e = t.get(p);
            if ((e & (Pte.PRESENT | Pte.ACCESSED)) == (Pte.PRESENT | Pte.ACCESSED)) {
                t.set(p, e & ~Pte.ACCESSED);
                young = true;
            }
        }
        return young;
    }

    /** Deregisters a region: its keys stop working and its translations are dropped. */
    public void deregister(MemoryRegion mr) {
        keys.deregister(mr);
        cache.invalidateRegion(mr);
    }

    /** The translation cache (its hit and miss counts). */
    public TranslationCache translationCache() {
        return cache;
    }

    // ---------------------------------------------------------------- on-demand paging

    /** Installs the driver that resolves page faults and serves prefetch advice (null: none). */
    public void setPageFaultHandler(PageFaultHandler handler) {
        faults.setHandler(handler);
    }

    /** The installed page-fault handler (the driver), or null: drivers attach once per NIC. */
    public PageFaultHandler pageFaultHandler() {
        return faults.handler();
    }

    /**
     * Resumes the QP side suspended on {@code fault} (mlx5's PAGE_FAULT_RESUME). A requester
     * resumes after fetching its head work request again ({@link NicCosts#wqeProcessingPs()});
     * a responder takes the peer's next retry.
     *
     * @return false if {@code fault} is not outstanding (already resumed)
     */
    public boolean resume(PageFault fault) {
        if (!faults.resolve(fault)) {
            return false;
        }
        if (fault.kind() == PageFaultKind.REQUESTER) {
            schedule(costs.wqeProcessingPs(), RESUMED, fault.qp().qpn());
        }
        return true;
    }

    /**
     * Ends the QP side suspended on {@code fault} with an error, as mlx5 resumes a fault whose
     * pages could not be mapped (PAGE_FAULT_RESUME with the error bit): the retried access is
     * refused once, a responder's with a remote access error to the requester, instead of
     * faulting again for ever.
     *
     * @return false if {@code fault} is not outstanding
     */
    public boolean fail(PageFault fault) {
        if (!faults.fail(fault)) {
            return false;
        }
        if (fault.kind() == PageFaultKind.REQUESTER) {
            schedule(costs.wqeProcessingPs(), RESUMED, fault.qp().qpn());
        }
        return true;
    }

    /** Resumes every outstanding fault of {@code qp}; returns how many. */
    public int resume(QueuePair qp) {
        int n = 0;
        for (PageFaultKind kind : PageFaultKind.values()) {
            PageFault f = qp.fault(kind);
            if (f != null && resume(f)) {
                n++;
            }
        }
        return n;
    }

    /** Page faults of that kind raised so far. */
    public long pageFaults(PageFaultKind kind) {
        return faults.faults(kind);
    }

    /** Picoseconds queue pairs spent suspended on resolved faults of that kind. */
    public long suspendedPs(PageFaultKind kind) {
        return faults.suspendedPs(kind);
    }

    /** Accesses refused because an entry of a pinned region was not present (a model bug). */
    public long unmappedPinnedAccesses() {
        return refusals.unmappedPinned();
    }

    /**
     * Asks the page-fault handler to map {@code [address, address + length)} of an on-demand
     * region ahead of access, as {@code ibv_advise_mr}.
     *
     * @param flags one {@link AdviseMrFlags} (PREFETCH, PREFETCH_WRITE, PREFETCH_NO_FAULT), optionally
     *              with {@link AdviseMrFlags#FLUSH} (synchronous)
     * @return whether the handler took the advice; false with no handler, for a region that is
     *         not on-demand or no longer registered, or for a range outside the region
     * @throws IllegalArgumentException if {@code flags} are not one advice plus optional FLUSH
     */
    public boolean advise(MemoryRegion mr, long address, long length, int flags) {
        return advise(mr, address, length, flags, null);
    }

    /**
     * As {@link #advise(MemoryRegion, long, long, int)}, with a completion the handler
     * completes when the work is done (after mapping, with {@link AdviseMrFlags#FLUSH}): a process
     * awaits it for a synchronous prefetch.
     */
    public boolean advise(MemoryRegion mr, long address, long length, int flags, Completion done) {
        if (!AdviseMrFlags.valid(flags)) {
            throw new IllegalArgumentException("advice flags 0x" + Integer.toHexString(flags)
                    + " are not one of PREFETCH, PREFETCH_WRITE, PREFETCH_NO_FAULT (optionally with FLUSH)");
        }
        PageFaultHandler h = faults.handler();
        if (h == null || !mr.valid() || !mr.onDemand() || !mr.contains(address, length)) {
            return false;
        }
        prefetches.increment();
        return h.prefetch(this, mr, address, length, flags, done);
    }

    // ---------------------------------------------------------------- queue pairs

    /**
     * Creates a queue pair; {@link #connect} links an RC one to a peer. A UD one is ready at once,
     * with the largest datagram a packet of the network carries as its MTU.
     */
    public QueuePair createQp(ProtectionDomain pd, QpType type, CompletionQueue sendCq, CompletionQueue recvCq) {
        return type == QpType.UD ? createUdQp(pd, sendCq, recvCq, endpoint.datagramCapacity())
                : add(new QueuePair(this, qps.size(), type, pd, sendCq, recvCq, 0));
    }

    /** The largest UD datagram payload, in bytes: what one packet of the network carries. */
    public int datagramCapacity() {
        return endpoint.datagramCapacity();
    }

    /** Creates a UD queue pair whose datagrams carry at most {@code mtuBytes} of payload. */
    public QueuePair createUdQp(ProtectionDomain pd, CompletionQueue sendCq, CompletionQueue recvCq, int mtuBytes) {
        if (mtuBytes <= 0 || mtuBytes > endpoint.datagramCapacity()) {
            throw new IllegalArgumentException("UD MTU must be in 1.." + endpoint.datagramCapacity()
                    + " (what a packet carries), got " + mtuBytes);
        }
        QueuePair qp = add(new QueuePair(this, qps.size(), QpType.UD, pd, sendCq, recvCq, mtuBytes));
        endpoint.openDatagram(qp.qpn(), p -> responder.datagram(qp, p));
        return qp;
    }

    private QueuePair add(QueuePair qp) {
        qps.add(qp);
        return qp;
    }

    /** Connects two RC queue pairs (on two NICs, or one) over the reliable transport. */
    public static void connect(QueuePair a, QueuePair b, TransportConfig transport) {
        if (a.type() != QpType.RC || b.type() != QpType.RC) {
            throw new IllegalArgumentException("only RC queue pairs are connected; UD addresses each send");
        }
        if (a.peerNode() >= 0 || b.peerNode() >= 0) {
            throw new IllegalStateException("queue pair already connected");
        }
        a.nic().open(a, b, transport);
        b.nic().open(b, a, transport);
    }

    private void open(QueuePair qp, QueuePair peer, TransportConfig transport) {
        qp.connected(peer.nic().node, peer.qpn());
        qp.sender = endpoint.openSender(qp.qpn(), peer.nic().node, peer.qpn(), transport, new PayloadSource() {
            @Override
            public boolean read(Packet p) {
                return requester.payload(qp, p);
            }

            @Override
            public long readyAt() {
                return requester.payloadReadyAt();
            }

            @Override
            public boolean stalls() {
                return requester.payloadStalls();
            }
        }, (id, status) -> completions.transportDone(qp, id, status));
        qp.receiver = endpoint.openReceiver(qp.qpn(), peer.nic().node, peer.qpn(), transport, new PacketSink() {
            @Override
            public SinkVerdict accept(Packet p) {
                return responder.place(qp, p);
            }

            @Override
            public long placedAt() {
                return responder.placedAt();
            }
        }, (id, len, opcode, addr) -> responder.delivered(qp, id, len, opcode, addr));
    }

    /** QueuePair's postSend: the requester checks and queues the request. */
    void postSend(QueuePair qp, WorkRequest wr, AddressHandle destination, Completion notify) {
        requester.postSend(qp, wr, destination, notify);
    }

    /** Schedules one of the NIC's events for a part: every NIC event is dispatched by {@link #handle}. */
    void scheduleEvent(long delay, int type, long arg) {
        schedule(delay, type, arg);
    }

    @Override
    public void handle(int type, long arg) {
        switch (type) {
            case START, RESUMED -> requester.advance(qps.get((int) arg));
            case TRANSLATED -> requester.translated(qps.get((int) arg));
            case DEPARTED -> requester.departed(qps.get((int) arg));
            case RESPOND -> responder.respond();
            case COMPLETE -> completions.written();
            case DATAGRAM_READ -> requester.datagramRead(qps.get((int) arg));
            case LANDED -> completions.landed();
            case NOTIFIED -> completions.notified();
            default -> throw new IllegalArgumentException("unknown NIC event " + type);
        }
    }
}
