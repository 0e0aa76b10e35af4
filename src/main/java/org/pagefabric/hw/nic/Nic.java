package org.pagefabric.hw.nic;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.hw.net.Packet;
import org.pagefabric.hw.net.SinkVerdict;
import org.pagefabric.hw.net.TransportConfig;
import org.pagefabric.hw.net.TransportEndpoint;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.Simulator;
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
 */
public final class Nic extends Component {
    private static final int START = 1;
    private static final int RESPOND = 2;
    private static final int COMPLETE = 3;
    /** Little-endian 8-byte fields in packet payloads, without a buffer object per access. */
    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final int node;
    private final NicCosts costs;
    private final PhysicalMemory memory;
    private final TransportEndpoint endpoint;
    private final KeyTable keys;
    private final List<QueuePair> qps = new ArrayList<>();
    private int nextPd = 1;

    private final ArrayDeque<QueuePair.Outgoing> starting = new ArrayDeque<>();
    private final ArrayDeque<QueuePair> startingQp = new ArrayDeque<>();
    private final ArrayDeque<QueuePair.Outgoing> responding = new ArrayDeque<>();
    private final ArrayDeque<QueuePair> respondingQp = new ArrayDeque<>();
    private final ArrayDeque<WorkCompletion> completing = new ArrayDeque<>();
    private final ArrayDeque<CompletionQueue> completingCq = new ArrayDeque<>();

    private final Counter[] refused = new Counter[AccessCheck.values().length];
    private final Counter translationFaults;
    private final Counter bytesRead;
    private final Counter bytesWritten;
    private final Counter messages;
    private final byte[] scratch = new byte[WireOp.REQUEST_BYTES];

    /**
     * A NIC on node {@code node}.
     *
     * @param memory   the host's physical memory, which its DMA engine reads and writes
     * @param endpoint the node's attachment to the network's reliable transport
     */
    public Nic(Simulator sim, Component parent, String localName, int node, NicCosts costs, PhysicalMemory memory,
               TransportEndpoint endpoint) {
        super(sim, parent, localName);
        this.node = node;
        this.costs = costs;
        this.memory = memory;
        this.endpoint = endpoint;
        this.keys = new KeyTable(random());
        for (AccessCheck c : AccessCheck.values()) {
            if (c != AccessCheck.OK) {
                refused[c.ordinal()] = counter("refused." + c.name().toLowerCase(java.util.Locale.ROOT), "accesses",
                        "accesses refused: " + c.name());
            }
        }
        translationFaults = counter("translation_faults", "packets", "accesses to a non-present translation entry");
        bytesRead = counter("dma_read_bytes", "bytes", "bytes the DMA engine read from host memory");
        bytesWritten = counter("dma_write_bytes", "bytes", "bytes the DMA engine wrote to host memory");
        messages = counter("messages", "messages", "messages started by this NIC");
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

    /** Registers a region without translations: pages are mapped on demand ({@link AccessFlags#ON_DEMAND}). */
    public MemoryRegion registerOnDemand(ProtectionDomain pd, long address, long length, int access, boolean implicit) {
        return keys.register(pd, address, length, access | AccessFlags.ON_DEMAND, implicit);
    }

    /** Installs translations for consecutive pages from {@code pageAddress} (page aligned). */
    public void mapPages(MemoryRegion mr, long pageAddress, long[] frames) {
        boolean writable = (mr.access() & (AccessFlags.LOCAL_WRITE | AccessFlags.REMOTE_WRITE | AccessFlags.REMOTE_ATOMIC)) != 0;
        long first = (pageAddress >>> MemoryRegion.PAGE_SHIFT) - mr.firstPage();
        long flags = Pte.PRESENT | Pte.READABLE | (writable ? Pte.WRITABLE : 0);
        for (int i = 0; i < frames.length; i++) {
            mr.table().set(first + i, Pte.withFrame(flags, frames[i]));
        }
    }

    /** Removes translations of {@code [address, address + length)} (an invalidation); returns how many were present. */
    public long zap(MemoryRegion mr, long address, long length) {
        long firstPage = Math.max(address >>> MemoryRegion.PAGE_SHIFT, mr.firstPage());
        long endPage = (address + length + (1L << MemoryRegion.PAGE_SHIFT) - 1) >>> MemoryRegion.PAGE_SHIFT;
        if (endPage <= firstPage) {
            return 0;
        }
        return mr.table().zap(firstPage - mr.firstPage(), endPage - firstPage);
    }

    /** Deregisters a region: its keys stop working and its translations are dropped. */
    public void deregister(MemoryRegion mr) {
        keys.deregister(mr);
    }

    /** Creates a queue pair; {@link #connect} links it to a peer. */
    public QueuePair createQp(ProtectionDomain pd, QpType type, CompletionQueue sendCq, CompletionQueue recvCq) {
        QueuePair qp = new QueuePair(this, qps.size(), type, pd, sendCq, recvCq);
        qps.add(qp);
        return qp;
    }

    /** Connects two RC queue pairs (on two NICs, or one) over the reliable transport. */
    public static void connect(QueuePair a, QueuePair b, TransportConfig transport) {
        if (a.peerNode() >= 0 || b.peerNode() >= 0) {
            throw new IllegalStateException("queue pair already connected");
        }
        a.nic().open(a, b, transport);
        b.nic().open(b, a, transport);
    }

    private void open(QueuePair qp, QueuePair peer, TransportConfig transport) {
        qp.connected(peer.nic().node, peer.qpn());
        qp.sender = endpoint.openSender(qp.qpn(), peer.nic().node, peer.qpn(), transport, p -> payload(qp, p),
                (id, status) -> transportDone(qp, id, status));
        qp.receiver = endpoint.openReceiver(qp.qpn(), peer.nic().node, peer.qpn(), transport, p -> place(qp, p),
                (id, len, opcode, addr) -> delivered(qp, id, len, opcode, addr));
    }

    // ---------------------------------------------------------------- requester

    void postSend(QueuePair qp, WorkRequest wr) {
        if (wr.opcode() == Opcode.RECV) {
            throw new IllegalArgumentException("receives go to postRecv");
        }
        if (qp.peerNode() < 0) {
            throw new IllegalStateException(qp + " is not connected");
        }
        int needed = wr.opcode() == Opcode.RDMA_READ || wr.opcode().atomic() ? AccessFlags.LOCAL_WRITE : 0;
        MemoryRegion local = keys.byLkey(wr.lkey());
        AccessCheck check = KeyTable.check(local, qp.pd(), wr.localAddress(), wr.length(), needed);
        int wire = WireOp.of(wr.opcode());
        QueuePair.Outgoing out = new QueuePair.Outgoing(qp.nextMessageId++, wr, wire, wr.remoteAddress(),
                wr.length(), local, wr.localAddress(), wr.compareOrAdd(), wr.swap());
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
        starting.addLast(out);
        startingQp.addLast(qp);
        boolean payload = wire == WireOp.WRITE || wire == WireOp.SEND;
        schedule(costs.doorbellPs() + costs.wqeProcessingPs() + (payload ? costs.dmaReadStartPs() : 0), START, 0);
    }

    private void start(QueuePair qp, QueuePair.Outgoing out) {
        messages.increment();
        if (qp.error || qp.sender.isFailed()) {
            out.status = CompletionStatus.FLUSHED;
            out.transportDone = true;
            qp.outgoing.remove(out.messageId);
            completeInOrder(qp);
            return;
        }
        long wireLength = out.needsAnswer() ? WireOp.REQUEST_BYTES : out.length;
        int key = out.wr == null ? 0 : out.wr.rkey();
        qp.sender.post(out.messageId, wireLength, out.address, out.wireOp, key);
    }

    /** The transport's DMA read: fills a packet of one of this QP's messages. */
    private boolean payload(QueuePair qp, Packet p) {
        QueuePair.Outgoing out = qp.outgoing.get(p.messageId);
        if (out == null) {
            return false;
        }
        switch (out.wireOp) {
            case WireOp.WRITE, WireOp.SEND, WireOp.READ_RESPONSE -> {
                if (!dmaRead(out.source, out.sourceAddress + p.offset, p.bytes, 0, p.length)) {
                    translationFaults.increment();
                    return false;
                }
            }
            case WireOp.READ_REQUEST -> putLongs(p.bytes, out.length, 0);
            case WireOp.CMP_AND_SWP, WireOp.FETCH_AND_ADD -> putLongs(p.bytes, out.operand0, out.operand1);
            case WireOp.ATOMIC_RESPONSE -> putLongs(p.bytes, out.operand0, 0);
            default -> throw new IllegalStateException("unknown wire op " + out.wireOp);
        }
        p.hasBytes = true;
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
                completing.addLast(new WorkCompletion(head.wr.wrId(), head.wr.opcode(), head.status, bytes, qp.qpn(),
                        sim.now() + costs.completionPs(), head.value));
                completingCq.addLast(qp.sendCq());
                schedule(costs.completionPs(), COMPLETE, 0);
            }
        }
    }

    // ---------------------------------------------------------------- responder

    /** The transport's DMA write: places one packet, or refuses it with a reason. */
    private SinkVerdict place(QueuePair qp, Packet p) {
        switch (p.opcode) {
            case WireOp.WRITE -> {
                MemoryRegion mr = keys.byRkey(p.key);
                AccessCheck c = KeyTable.check(mr, qp.pd(), p.address, p.messageLength, AccessFlags.REMOTE_WRITE);
                if (c != AccessCheck.OK) {
                    return refuse(c);
                }
                return write(mr, p.address + p.offset, p);
            }
            case WireOp.SEND -> {
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
                return write(mr, recv.localAddress() + p.offset, p);
            }
            case WireOp.READ_REQUEST -> {
                long length = getLong(p.bytes, 0);
                MemoryRegion mr = keys.byRkey(p.key);
                AccessCheck c = KeyTable.check(mr, qp.pd(), p.address, length, AccessFlags.REMOTE_READ);
                if (c != AccessCheck.OK) {
                    return refuse(c);
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
                return write(req.source, req.sourceAddress + p.offset, p);
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
        Long done = qp.atomicReplay.get(p.messageId);
        long old;
        if (done != null) {
            old = done; // a retransmitted request: answer again, do not execute twice
        } else {
            if (!dmaRead(mr, p.address, scratch, 0, 8)) {
                translationFaults.increment();
                return SinkVerdict.RECEIVER_NOT_READY;
            }
            old = getLong(scratch, 0);
            long operand = getLong(p.bytes, 0);
            long next = p.opcode == WireOp.FETCH_AND_ADD ? old + operand
                    : (old == operand ? getLong(p.bytes, 8) : old);
            putLongs(scratch, next, 0);
            if (!dmaWrite(mr, p.address, scratch, 0, 8)) {
                translationFaults.increment();
                return SinkVerdict.RECEIVER_NOT_READY;
            }
            qp.atomicReplay.put(p.messageId, old);
        }
        qp.incoming.put(p.messageId, new QueuePair.Incoming(WireOp.ATOMIC_RESPONSE, null, old, 8));
        return SinkVerdict.ACCEPT;
    }

    private SinkVerdict write(MemoryRegion mr, long va, Packet p) {
        if (!dmaWrite(mr, va, p.bytes, 0, p.length)) {
            translationFaults.increment();
            return SinkVerdict.RECEIVER_NOT_READY;
        }
        return SinkVerdict.ACCEPT;
    }

    private SinkVerdict refuse(AccessCheck c) {
        refused[c.ordinal()].increment();
        return SinkVerdict.ACCESS_ERROR;
    }

    private void delivered(QueuePair qp, long id, long len, int opcode, long addr) {
        switch (opcode) {
            case WireOp.SEND -> {
                WorkRequest recv = qp.boundReceives.remove(id);
                if (recv != null) {
                    completing.addLast(new WorkCompletion(recv.wrId(), Opcode.RECV, CompletionStatus.SUCCESS, len,
                            qp.qpn(), sim.now() + costs.completionPs(), 0));
                    completingCq.addLast(qp.recvCq());
                    schedule(costs.completionPs(), COMPLETE, 0);
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
            case START -> start(startingQp.pollFirst(), starting.pollFirst());
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
            default -> throw new IllegalArgumentException("unknown NIC event " + type);
        }
    }

    // ---------------------------------------------------------------- DMA

    /** Reads through the region's translations; false (nothing read) if a page is not present. */
    private boolean dmaRead(MemoryRegion mr, long va, byte[] dst, int off, int len) {
        if (!translated(mr, va, len, false)) {
            return false;
        }
        int done = 0;
        while (done < len) {
            long a = va + done;
            int inPage = (int) (a & ((1 << MemoryRegion.PAGE_SHIFT) - 1));
            int n = Math.min(len - done, (1 << MemoryRegion.PAGE_SHIFT) - inPage);
            memory.read(frame(mr, a), inPage, dst, off + done, n);
            done += n;
        }
        bytesRead.add(len);
        return true;
    }

    /** Writes through the region's translations; false (nothing written) if a page is not present or read-only. */
    private boolean dmaWrite(MemoryRegion mr, long va, byte[] src, int off, int len) {
        if (!translated(mr, va, len, true)) {
            return false;
        }
        int done = 0;
        while (done < len) {
            long a = va + done;
            int inPage = (int) (a & ((1 << MemoryRegion.PAGE_SHIFT) - 1));
            int n = Math.min(len - done, (1 << MemoryRegion.PAGE_SHIFT) - inPage);
            memory.write(frame(mr, a), inPage, src, off + done, n);
            done += n;
        }
        bytesWritten.add(len);
        return true;
    }

    private boolean translated(MemoryRegion mr, long va, int len, boolean write) {
        if (len == 0) {
            return true;
        }
        long need = Pte.PRESENT | (write ? Pte.WRITABLE : 0);
        for (long page = va >>> MemoryRegion.PAGE_SHIFT; page <= (va + len - 1) >>> MemoryRegion.PAGE_SHIFT; page++) {
            if (!Pte.has(mr.table().get(page - mr.firstPage()), need)) {
                return false;
            }
        }
        return true;
    }

    private static long frame(MemoryRegion mr, long va) {
        return Pte.frame(mr.table().get((va >>> MemoryRegion.PAGE_SHIFT) - mr.firstPage()));
    }

    private static void putLongs(byte[] b, long x, long y) {
        LONG_LE.set(b, 0, x);
        LONG_LE.set(b, 8, y);
    }

    private static long getLong(byte[] b, int at) {
        return (long) LONG_LE.get(b, at);
    }
}
