package org.pagefabric.hw.nic;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
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
 */
public final class Nic extends Component {
    /** A posted request has been fetched (arg: qpn): start the send queue's ready messages. */
    private static final int START = 1;
    private static final int RESPOND = 2;
    private static final int COMPLETE = 3;
    /** The translation misses of a send queue's head message have been fetched (arg: qpn). */
    private static final int TRANSLATED = 4;
    /** A UD datagram's last bit has left (arg: qpn). */
    private static final int DEPARTED = 5;
    /** A resumed send queue has fetched its head request again (arg: qpn). */
    private static final int RESUMED = 6;
    /** A UD datagram's payload read has been translated by the IOMMU (arg: qpn): it may leave. */
    private static final int DATAGRAM_READ = 7;
    /** A UD receive's IOMMU-translated placement has reached memory: its completion lands. */
    private static final int LANDED = 8;
    /** Little-endian 8-byte fields in packet payloads, without a buffer object per access. */
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final int node;
    private final NicCosts costs;
    private final TransportEndpoint endpoint;
    private final KeyTable keys;
    private final List<QueuePair> qps = new ArrayList<>();
    private int nextPd = 1;

    private final ArrayDeque<QueuePair.Outgoing> responding = new ArrayDeque<>();
    private final ArrayDeque<QueuePair> respondingQp = new ArrayDeque<>();
    private final ArrayDeque<WorkCompletion> completing = new ArrayDeque<>();
    private final ArrayDeque<CompletionQueue> completingCq = new ArrayDeque<>();
    /** Completions of timed placements, in order: their times never decrease (the translation stage keeps order). */
    private final ArrayDeque<WorkCompletion> landing = new ArrayDeque<>();
    private final ArrayDeque<CompletionQueue> landingCq = new ArrayDeque<>();

    private final Counter[] refused = new Counter[AccessCheck.values().length];
    private final Counter messages;
    private final Counter unmappedPinned;
    private final Counter udNoReceive;
    private final Counter udNotPresent;
    private final Counter udReceived;
    private final Counter prefetches;
    private final TranslationCache cache;
    private final DmaEngine dma;
    private final PageFaultUnit faults;
    private final byte[] scratch = new byte[WireOp.REQUEST_BYTES];
    /** DMA through the node's IOMMU (PART, Active Access), or null: see {@link #attachIommu}. */
    private IommuDmaPath iommuPath;
    /** When the last RC payload read is available (its IOMMU translation done), or 0: see {@link #payload}. */
    private long payloadReadyAt;
    /** When the last RC packet placed reaches memory (its IOMMU translation done), or 0: see {@link #place}. */
    private long placedAt;

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
        super(sim, parent, localName);
        this.node = node;
        this.costs = costs;
        this.endpoint = endpoint;
        this.keys = new KeyTable(random());
        for (AccessCheck c : AccessCheck.values()) {
            if (c != AccessCheck.OK) {
                refused[c.ordinal()] = counter("refused." + c.name().toLowerCase(java.util.Locale.ROOT), "accesses",
                        "accesses refused: " + c.name());
            }
        }
        messages = counter("messages", "messages", "messages started by this NIC");
        unmappedPinned = counter("unmapped_pinned", "accesses",
                "accesses refused because a pinned region's entry was not present (a model bug)");
        udNoReceive = counter("ud_dropped_no_receive", "datagrams", "UD datagrams dropped: no receive posted");
        udNotPresent = counter("ud_dropped_not_present", "datagrams",
                "UD datagrams dropped: target page not present, or the responder suspended on a fault");
        udReceived = counter("ud_received", "datagrams", "UD datagrams placed into a receive");
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
        return reason == AccessCheck.OK ? 0 : refused[reason.ordinal()].value();
    }

    /** All refused accesses so far. */
    public long refusedTotal() {
        long n = 0;
        for (Counter c : refused) {
            if (c != null) {
                n += c.value();
            }
        }
        return n;
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
        mapPages(mr, address & ~((1L << MemoryRegion.PAGE_SHIFT) - 1), frames);
        return mr;
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
        long first = (pageAddress >>> MemoryRegion.PAGE_SHIFT) - mr.firstPage();
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
        long firstPage = Math.max(address >>> MemoryRegion.PAGE_SHIFT, mr.firstPage());
        long endPage = (address + length + (1L << MemoryRegion.PAGE_SHIFT) - 1) >>> MemoryRegion.PAGE_SHIFT;
        if (endPage <= firstPage) {
            return 0;
        }
        cache.invalidate(mr, firstPage - mr.firstPage(), endPage - firstPage);
        return mr.table().zap(firstPage - mr.firstPage(), endPage - firstPage);
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
        return unmappedPinned.value();
    }

    /**
     * Asks the page-fault handler to map {@code [address, address + length)} of an on-demand
     * region ahead of access, as {@code ibv_advise_mr}.
     *
     * @param flags one {@link Advice} (PREFETCH, PREFETCH_WRITE, PREFETCH_NO_FAULT), optionally
     *              with {@link Advice#FLUSH} (synchronous)
     * @return whether the handler took the advice; false with no handler, for a region that is
     *         not on-demand or no longer registered, or for a range outside the region
     * @throws IllegalArgumentException if {@code flags} are not one advice plus optional FLUSH
     */
    public boolean advise(MemoryRegion mr, long address, long length, int flags) {
        return advise(mr, address, length, flags, null);
    }

    /**
     * As {@link #advise(MemoryRegion, long, long, int)}, with a completion the handler
     * completes when the work is done (after mapping, with {@link Advice#FLUSH}): a process
     * awaits it for a synchronous prefetch.
     */
    public boolean advise(MemoryRegion mr, long address, long length, int flags, Completion done) {
        if (!Advice.valid(flags)) {
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
        endpoint.openDatagram(qp.qpn(), p -> datagram(qp, p));
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
                return payload(qp, p);
            }

            @Override
            public long readyAt() {
                return payloadReadyAt;
            }
        }, (id, status) -> transportDone(qp, id, status));
        qp.receiver = endpoint.openReceiver(qp.qpn(), peer.nic().node, peer.qpn(), transport, new PacketSink() {
            @Override
            public SinkVerdict accept(Packet p) {
                return place(qp, p);
            }

            @Override
            public long placedAt() {
                return placedAt;
            }
        }, (id, len, opcode, addr) -> delivered(qp, id, len, opcode, addr));
    }

    // ---------------------------------------------------------------- requester

    void postSend(QueuePair qp, WorkRequest wr, AddressHandle destination) {
        if (wr.opcode() == Opcode.RECV) {
            throw new IllegalArgumentException("receives go to postRecv");
        }
        if (qp.type() == QpType.UD) {
            if (destination == null) {
                throw new IllegalArgumentException(qp + " is UD: a send needs an address handle");
            }
            if (wr.opcode() != Opcode.SEND) {
                throw new IllegalArgumentException(qp + " is UD: only sends, not " + wr.opcode());
            }
            if (wr.length() > qp.mtu()) {
                throw new IllegalArgumentException(qp + " is UD: a datagram carries at most " + qp.mtu() + " B, not "
                        + wr.length());
            }
        } else {
            if (destination != null) {
                throw new IllegalArgumentException(qp + " is RC: it sends to its connected peer, not an address handle");
            }
            if (qp.peerNode() < 0) {
                throw new IllegalStateException(qp + " is not connected");
            }
        }
        int needed = wr.opcode() == Opcode.RDMA_READ || wr.opcode().atomic() ? AccessFlags.LOCAL_WRITE : 0;
        MemoryRegion local = keys.byLkey(wr.lkey());
        AccessCheck check = KeyTable.check(local, qp.pd(), wr.localAddress(), wr.length(), needed);
        int wire = WireOp.of(wr.opcode());
        QueuePair.Outgoing out = new QueuePair.Outgoing(qp.nextMessageId++, wr, wire, wr.remoteAddress(),
                wr.length(), local, wr.localAddress(), wr.compareOrAdd(), wr.swap(), destination);
        qp.sendQueue.addLast(out);
        if (qp.error) {
            out.status = CompletionStatus.FLUSHED;
        } else if (check != AccessCheck.OK) {
            refused[check.ordinal()].increment();
            out.status = CompletionStatus.LOCAL_PROTECTION_ERROR;
            qp.error = true;
        }
        if (out.status != CompletionStatus.SUCCESS) {
            out.transportDone = true;
            completeInOrder(qp);
            return;
        }
        qp.outgoing.put(out.messageId, out);
        long fetch = costs.doorbellPs() + costs.wqeProcessingPs() + (out.readsLocal() ? costs.dmaReadStartPs() : 0);
        out.readyAt = sim.now() + fetch;
        qp.pending.addLast(out);
        schedule(fetch, START, qp.qpn());
    }

    /**
     * Starts the send queue's ready messages in posting order, until one must wait: for its
     * translation misses, for a UD datagram to leave, or on a page fault.
     */
    private void advance(QueuePair qp) {
        while (!qp.sendBusy && !qp.sendSuspended()) {
            QueuePair.Outgoing out = qp.pending.peekFirst();
            if (out == null || out.readyAt > sim.now()) {
                return; // a later message fetched sooner waits for its elders; their START comes
            }
            if (qp.error || (qp.sender != null && qp.sender.isFailed())) {
                qp.pending.pollFirst();
                finish(qp, out, CompletionStatus.FLUSHED);
                continue;
            }
            // Checked on every attempt, also after the misses were fetched: a zap may have run meanwhile.
            boolean writesLocal = out.needsAnswer();
            long unmapped = DmaEngine.firstUnmapped(out.source, out.sourceAddress, out.length, writesLocal);
            if (unmapped >= 0) {
                if (!out.source.onDemand()) {
                    unmappedPinned.increment();
                    qp.pending.pollFirst();
                    qp.error = true;
                    finish(qp, out, CompletionStatus.LOCAL_PROTECTION_ERROR);
                    continue;
                }
                faults.raise(PageFaultKind.REQUESTER, qp, out.source, unmapped,
                        out.sourceAddress + out.length - unmapped, writesLocal);
                return;
            }
            if (!out.translated) {
                out.translated = true;
                int misses = out.readsLocal() ? dma.warm(out.source, out.sourceAddress, Math.min(out.length, mtu(qp))) : 0;
                if (misses > 0) {
                    qp.sendBusy = true;
                    schedule(misses * costs.translationMissPs(), TRANSLATED, qp.qpn());
                    return;
                }
            }
            qp.pending.pollFirst();
            post(qp, out);
        }
    }

    private int mtu(QueuePair qp) {
        return qp.type() == QpType.UD ? qp.mtu() : qp.sender.config().mtuBytes();
    }

    /** Ends a message that never reached the wire. */
    private void finish(QueuePair qp, QueuePair.Outgoing out, CompletionStatus status) {
        out.status = status;
        out.transportDone = true;
        qp.outgoing.remove(out.messageId);
        completeInOrder(qp);
    }

    private void post(QueuePair qp, QueuePair.Outgoing out) {
        messages.increment();
        if (qp.type() == QpType.UD) {
            sendDatagram(qp, out);
            return;
        }
        long wireLength = out.needsAnswer() ? WireOp.REQUEST_BYTES : out.length;
        qp.sender.post(out.messageId, wireLength, out.address, out.wireOp, out.wr.rkey());
    }

    /** Sends a UD message as one datagram; the send queue waits until it has left. */
    private void sendDatagram(QueuePair qp, QueuePair.Outgoing out) {
        Packet p = endpoint.newDatagram(out.destination.node(), out.destination.qpn());
        p.opcode = WireOp.SEND;
        p.messageId = out.messageId;
        p.address = qp.qpn(); // the source QPN, as the datagram header (DETH) carries it
        p.length = (int) out.length;
        if (!dma.readTimed(out.source, out.sourceAddress, p.bytes, 0, p.length)) {
            // advance() saw every page mapped in this very event, and the cache follows the table.
            throw new IllegalStateException(qp + ": translation of a checked buffer failed");
        }
        p.hasBytes = true;
        qp.sendBusy = true;
        qp.departing = out;
        long ready = dma.readyAt();
        if (ready > sim.now()) {
            // The payload is available once the IOMMU has translated it: the datagram leaves then.
            qp.translating = p;
            schedule(ready - sim.now(), DATAGRAM_READ, qp.qpn());
            return;
        }
        depart(qp, p);
    }

    private void depart(QueuePair qp, Packet p) {
        long left = endpoint.sendDatagram(p);
        schedule(left - sim.now(), DEPARTED, qp.qpn());
    }

    /** The transport's DMA read: fills a packet of one of this QP's messages. */
    private boolean payload(QueuePair qp, Packet p) {
        payloadReadyAt = 0;
        QueuePair.Outgoing out = qp.outgoing.get(p.messageId);
        if (out == null) {
            return false;
        }
        switch (out.wireOp) {
            case WireOp.WRITE, WireOp.SEND, WireOp.READ_RESPONSE -> {
                if (out.source.iommuTranslated() && iommuPath != null) {
                    iommuPath.beginPacket(qp.qpn(), p, out.sourceAddress, out.length);
                }
                if (!dma.readPacket(out.source, out.sourceAddress + p.offset, p)) {
                    if (out.source.iommuTranslated()) {
                        iommuPath.readRefused(qp, out.source, p, out.sourceAddress, out.length);
                        return false; // the source's time-out recovers the block (PART)
                    }
                    // Zapped after the message started: the transport resends the packet after its time-out.
                    PageFaultKind kind = out.wr == null ? PageFaultKind.RESPONDER : PageFaultKind.REQUESTER;
                    unmapped(kind, qp, out.source, dma.faultAddress(), out.sourceAddress + out.length, false);
                    return false;
                }
                if (out.source.iommuTranslated() && iommuPath != null) {
                    iommuPath.readDone(p);
                }
                // An IOMMU-translated payload leaves once translated: the transport holds the packet until then.
                payloadReadyAt = dma.readyAt();
                return true;
            }
            case WireOp.READ_REQUEST -> putLongs(p.bytes, out.length, 0);
            case WireOp.CMP_AND_SWP, WireOp.FETCH_AND_ADD -> putLongs(p.bytes, out.operand0, out.operand1);
            case WireOp.ATOMIC_RESPONSE -> putLongs(p.bytes, out.operand0, 0);
            default -> throw new IllegalStateException("unknown wire op " + out.wireOp);
        }
        p.hasBytes = true;
        return true;
    }

    /**
     * An access met a non-present entry at {@code address}, with the access reaching to
     * {@code end}: raises a fault for an on-demand region, counts a model bug for a pinned one.
     *
     * @return whether the region is on-demand (so the access is to be retried, not refused)
     */
    private boolean unmapped(PageFaultKind kind, QueuePair qp, MemoryRegion mr, long address, long end, boolean write) {
        if (!mr.onDemand()) {
            unmappedPinned.increment();
            return false;
        }
        faults.raise(kind, qp, mr, address, end - address, write);
        return true;
    }

    private void transportDone(QueuePair qp, long id, org.pagefabric.hw.net.CompletionStatus status) {
        QueuePair.Outgoing out = qp.outgoing.get(id);
        if (out == null) {
            return;
        }
        out.transportDone = true;
        if (status != org.pagefabric.hw.net.CompletionStatus.SUCCESS) {
            out.status = switch (status) {
                case RETRY_EXCEEDED -> CompletionStatus.RETRY_EXCEEDED;
                case RNR_RETRY_EXCEEDED -> CompletionStatus.RNR_RETRY_EXCEEDED;
                case REMOTE_ACCESS_ERROR -> CompletionStatus.REMOTE_ACCESS_ERROR;
                case FLUSHED -> CompletionStatus.FLUSHED;
                case SUCCESS -> CompletionStatus.SUCCESS;
            };
            qp.error = true;
        }
        if (out.wr == null) {
            qp.outgoing.remove(id); // a response we sent: no completion on this side
            return;
        }
        completeInOrder(qp);
    }

    /** Reports finished send-queue entries from the head, so completions keep posting order. */
    private void completeInOrder(QueuePair qp) {
        while (!qp.sendQueue.isEmpty()) {
            QueuePair.Outgoing head = qp.sendQueue.peekFirst();
            boolean failed = head.status != CompletionStatus.SUCCESS;
            if (!failed && (!head.transportDone || (head.needsAnswer() && !head.answered))) {
                return;
            }
            qp.sendQueue.pollFirst();
            qp.outgoing.remove(head.messageId);
            if (head.wr.signaled() || failed) {
                long bytes = failed ? 0 : head.length;
                complete(new WorkCompletion(head.wr.wrId(), head.wr.opcode(), head.status, bytes, qp.qpn(),
                        sim.now() + costs.completionPs(), head.value), qp.sendCq());
            }
        }
    }

    /** Writes a completion entry, which lands after {@link NicCosts#completionPs()}. */
    private void complete(WorkCompletion wc, CompletionQueue cq) {
        completing.addLast(wc);
        completingCq.addLast(cq);
        schedule(costs.completionPs(), COMPLETE, 0);
    }

    // ---------------------------------------------------------------- responder

    /** The transport's DMA write: places one packet, or refuses it with a reason. */
    private SinkVerdict place(QueuePair qp, Packet p) {
        placedAt = 0;
        switch (p.opcode) {
            case WireOp.WRITE -> {
                MemoryRegion mr = keys.byRkey(p.key);
                AccessCheck c = KeyTable.check(mr, qp.pd(), p.address, p.messageLength, AccessFlags.REMOTE_WRITE);
                if (c != AccessCheck.OK) {
                    return refuse(c);
                }
                if (qp.responderSuspended()) {
                    return SinkVerdict.RECEIVER_NOT_READY;
                }
                return write(qp, PageFaultKind.RESPONDER, mr, p.address + p.offset, p.address + p.messageLength, p);
            }
            case WireOp.SEND -> {
                if (qp.responderSuspended()) {
                    return SinkVerdict.RECEIVER_NOT_READY;
                }
                WorkRequest recv = qp.boundReceives.get(p.messageId);
                if (recv == null) {
                    recv = qp.recvQueue.pollFirst();
                    if (recv == null) {
                        return SinkVerdict.RECEIVER_NOT_READY;
                    }
                    qp.boundReceives.put(p.messageId, recv);
                }
                MemoryRegion mr = keys.byLkey(recv.lkey());
                AccessCheck c = p.messageLength > recv.length() ? AccessCheck.OUT_OF_BOUNDS
                        : KeyTable.check(mr, qp.pd(), recv.localAddress(), p.messageLength, AccessFlags.LOCAL_WRITE);
                if (c != AccessCheck.OK) {
                    return refuse(c);
                }
                return write(qp, PageFaultKind.RESPONDER, mr, recv.localAddress() + p.offset,
                        recv.localAddress() + p.messageLength, p);
            }
            case WireOp.READ_REQUEST -> {
                long length = getLong(p.bytes, 0);
                MemoryRegion mr = keys.byRkey(p.key);
                AccessCheck c = KeyTable.check(mr, qp.pd(), p.address, length, AccessFlags.REMOTE_READ);
                if (c != AccessCheck.OK) {
                    return refuse(c);
                }
                if (qp.responderSuspended()) {
                    return SinkVerdict.RECEIVER_NOT_READY;
                }
                // The whole range must be mapped before the response starts (mlx5's RDMA-read responder fault).
                long unmapped = DmaEngine.firstUnmapped(mr, p.address, length, false);
                if (unmapped >= 0) {
                    return retryOrRefuse(unmapped(PageFaultKind.RESPONDER, qp, mr, unmapped, p.address + length, false));
                }
                qp.incoming.put(p.messageId, new QueuePair.Incoming(WireOp.READ_RESPONSE, mr, p.address, length));
                return SinkVerdict.ACCEPT;
            }
            case WireOp.CMP_AND_SWP, WireOp.FETCH_AND_ADD -> {
                return atomic(qp, p);
            }
            case WireOp.READ_RESPONSE, WireOp.ATOMIC_RESPONSE -> {
                QueuePair.Outgoing req = qp.outgoing.get(p.address);
                if (req == null) {
                    return SinkVerdict.DROP;
                }
                if (p.opcode == WireOp.ATOMIC_RESPONSE) {
                    req.value = getLong(p.bytes, 0);
                }
                // Our own request's local buffer, zapped since it started: a requester fault.
                return write(qp, PageFaultKind.REQUESTER, req.source, req.sourceAddress + p.offset,
                        req.sourceAddress + req.length, p);
            }
            default -> {
                return refuse(AccessCheck.ACCESS_DENIED);
            }
        }
    }

    private SinkVerdict atomic(QueuePair qp, Packet p) {
        MemoryRegion mr = keys.byRkey(p.key);
        AccessCheck c = (p.address & 7) != 0 ? AccessCheck.OUT_OF_BOUNDS
                : KeyTable.check(mr, qp.pd(), p.address, 8, AccessFlags.REMOTE_ATOMIC);
        if (c != AccessCheck.OK) {
            return refuse(c);
        }
        if (qp.responderSuspended()) {
            return SinkVerdict.RECEIVER_NOT_READY;
        }
        Long done = qp.atomicReplay.get(p.messageId);
        long old;
        if (done != null) {
            old = done; // a retransmitted request: answer again, do not execute twice
        } else {
            // A write that fails writes nothing, so a read-only page faults here without changing memory.
            if (!dma.read(mr, p.address, scratch, 0, 8)) {
                return retryOrRefuse(unmapped(PageFaultKind.RESPONDER, qp, mr, dma.faultAddress(), p.address + 8, true));
            }
            old = getLong(scratch, 0);
            long operand = getLong(p.bytes, 0);
            long next = p.opcode == WireOp.FETCH_AND_ADD ? old + operand
                    : (old == operand ? getLong(p.bytes, 8) : old);
            putLongs(scratch, next, 0);
            if (!dma.write(mr, p.address, scratch, 0, 8)) {
                return retryOrRefuse(unmapped(PageFaultKind.RESPONDER, qp, mr, dma.faultAddress(), p.address + 8, true));
            }
            qp.atomicReplay.put(p.messageId, old);
        }
        qp.incoming.put(p.messageId, new QueuePair.Incoming(WireOp.ATOMIC_RESPONSE, null, old, 8));
        return SinkVerdict.ACCEPT;
    }

    /** Places a packet at {@code va}; a non-present entry faults the QP side {@code kind}. */
    private SinkVerdict write(QueuePair qp, PageFaultKind kind, MemoryRegion mr, long va, long end, Packet p) {
        if (mr.iommuTranslated() && iommuPath != null) {
            iommuPath.beginPacket(qp.qpn(), p, va - p.offset, p.messageLength);
        }
        boolean written = dma.writePacket(mr, va, p);
        // An IOMMU-translated placement lands once translated: the transport's ACK and delivery wait for it.
        placedAt = dma.readyAt();
        if (written) {
            return SinkVerdict.ACCEPT;
        }
        if (mr.iommuTranslated()) {
            return iommuPath == null ? SinkVerdict.ACCESS_ERROR : iommuPath.writeRefused(qp, mr, p, va - p.offset);
        }
        return retryOrRefuse(unmapped(kind, qp, mr, dma.faultAddress(), end, true));
    }

    /** RC's answer to a non-present entry: RNR while an on-demand fault is resolved, an access error otherwise. */
    private static SinkVerdict retryOrRefuse(boolean onDemand) {
        return onDemand ? SinkVerdict.RECEIVER_NOT_READY : SinkVerdict.ACCESS_ERROR;
    }

    private SinkVerdict refuse(AccessCheck c) {
        refused[c.ordinal()].increment();
        return SinkVerdict.ACCESS_ERROR;
    }

    /**
     * A datagram for UD queue pair {@code qp}: placed into the oldest posted receive, or dropped
     * (no receive; target page not present, which raises a responder fault; responder suspended).
     * A receive whose buffer is too small or whose key fails is consumed with an error, as verbs
     * complete it (local length or protection error).
     */
    private SinkVerdict datagram(QueuePair qp, Packet p) {
        if (qp.responderSuspended()) {
            udNotPresent.increment();
            return SinkVerdict.DROP;
        }
        WorkRequest recv = qp.recvQueue.peekFirst();
        if (recv == null) {
            udNoReceive.increment();
            return SinkVerdict.DROP;
        }
        MemoryRegion mr = keys.byLkey(recv.lkey());
        AccessCheck c = p.length > recv.length() ? AccessCheck.OUT_OF_BOUNDS
                : KeyTable.check(mr, qp.pd(), recv.localAddress(), p.length, AccessFlags.LOCAL_WRITE);
        if (c != AccessCheck.OK) {
            refused[c.ordinal()].increment();
            qp.recvQueue.pollFirst();
            complete(new WorkCompletion(recv.wrId(), Opcode.RECV, CompletionStatus.LOCAL_PROTECTION_ERROR, 0, qp.qpn(),
                    sim.now() + costs.completionPs(), 0), qp.recvCq());
            return SinkVerdict.ACCESS_ERROR;
        }
        if (!dma.writeTimed(mr, recv.localAddress(), p.bytes, 0, p.length)) {
            if (!mr.iommuTranslated()) {
                unmapped(PageFaultKind.RESPONDER, qp, mr, dma.faultAddress(), recv.localAddress() + p.length, true);
            }
            udNotPresent.increment();
            return SinkVerdict.DROP;
        }
        qp.recvQueue.pollFirst();
        udReceived.increment();
        long ready = dma.readyAt();
        if (ready > sim.now()) {
            // The data reaches memory once the IOMMU has translated the receive buffer: the completion follows it.
            landing.addLast(new WorkCompletion(recv.wrId(), Opcode.RECV, CompletionStatus.SUCCESS, p.length, qp.qpn(),
                    ready + costs.completionPs(), AddressHandle.pack(p.src, (int) p.address)));
            landingCq.addLast(qp.recvCq());
            schedule(ready - sim.now() + costs.completionPs(), LANDED, 0);
            return SinkVerdict.ACCEPT;
        }
        complete(new WorkCompletion(recv.wrId(), Opcode.RECV, CompletionStatus.SUCCESS, p.length, qp.qpn(),
                sim.now() + costs.completionPs(), AddressHandle.pack(p.src, (int) p.address)), qp.recvCq());
        return SinkVerdict.ACCEPT;
    }

    private void delivered(QueuePair qp, long id, long len, int opcode, long addr) {
        switch (opcode) {
            case WireOp.SEND -> {
                WorkRequest recv = qp.boundReceives.remove(id);
                if (recv != null) {
                    complete(new WorkCompletion(recv.wrId(), Opcode.RECV, CompletionStatus.SUCCESS, len, qp.qpn(),
                            sim.now() + costs.completionPs(), 0), qp.recvCq());
                }
            }
            case WireOp.READ_REQUEST, WireOp.CMP_AND_SWP, WireOp.FETCH_AND_ADD -> {
                QueuePair.Incoming in = qp.incoming.remove(id);
                if (in == null) {
                    return;
                }
                QueuePair.Outgoing response = in.wireOp() == WireOp.READ_RESPONSE
                        ? new QueuePair.Outgoing(qp.nextMessageId++, null, WireOp.READ_RESPONSE, id, in.length(),
                                in.region(), in.address(), 0, 0)
                        : new QueuePair.Outgoing(qp.nextMessageId++, null, WireOp.ATOMIC_RESPONSE, id, 8, null, 0,
                                in.address(), 0);
                qp.outgoing.put(response.messageId, response);
                responding.addLast(response);
                respondingQp.addLast(qp);
                schedule(costs.dmaReadStartPs(), RESPOND, 0);
            }
            case WireOp.READ_RESPONSE, WireOp.ATOMIC_RESPONSE -> {
                QueuePair.Outgoing req = qp.outgoing.get(addr);
                if (req != null) {
                    req.answered = true;
                    completeInOrder(qp);
                }
            }
            default -> {
                // RDMA writes complete only at the requester.
            }
        }
    }

    @Override
    public void handle(int type, long arg) {
        switch (type) {
            case START, RESUMED -> advance(qps.get((int) arg));
            case TRANSLATED -> {
                QueuePair qp = qps.get((int) arg);
                qp.sendBusy = false;
                advance(qp);
            }
            case DEPARTED -> {
                QueuePair qp = qps.get((int) arg);
                QueuePair.Outgoing out = qp.departing;
                qp.departing = null;
                qp.sendBusy = false;
                out.transportDone = true;
                completeInOrder(qp);
                advance(qp);
            }
            case RESPOND -> {
                QueuePair qp = respondingQp.pollFirst();
                QueuePair.Outgoing out = responding.pollFirst();
                if (qp.sender.isFailed()) {
                    qp.outgoing.remove(out.messageId);
                } else {
                    qp.sender.post(out.messageId, out.length, out.address, out.wireOp, 0);
                }
            }
            case COMPLETE -> completingCq.pollFirst().push(completing.pollFirst());
            case DATAGRAM_READ -> {
                QueuePair qp = qps.get((int) arg);
                Packet p = qp.translating;
                qp.translating = null;
                depart(qp, p);
            }
            case LANDED -> landingCq.pollFirst().push(landing.pollFirst());
            default -> throw new IllegalArgumentException("unknown NIC event " + type);
        }
    }

    private static void putLongs(byte[] b, long x, long y) {
        LONG_LE.set(b, 0, x);
        LONG_LE.set(b, 8, y);
    }

    private static long getLong(byte[] b, int at) {
        return (long) LONG_LE.get(b, at);
    }
}
