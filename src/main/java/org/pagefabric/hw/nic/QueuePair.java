package org.pagefabric.hw.nic;

import java.util.ArrayDeque;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.hw.net.ReliableReceiver;
import org.pagefabric.hw.net.ReliableSender;

/**
 * A queue pair: a send queue of work requests, a receive queue consumed by incoming sends, and
 * the responder state of the peer's requests. A reliable-connected (RC) QP's messages are
 * carried by the transport's sender on channel {@link #qpn()}; an unreliable-datagram (UD) QP
 * sends single-packet datagrams to the {@link AddressHandle} of each work request.
 *
 * <p>The NIC starts the send queue's messages one at a time, in posting order: a message whose
 * local buffer is not mapped (on-demand paging) raises a requester fault and suspends the send
 * queue, with the message kept at its head, until the fault is resumed.
 *
 * <p>Completions of the send queue are reported in posting order, as verbs require, even when a
 * later write is acknowledged before an earlier read's response has arrived.
 */
public final class QueuePair {
    private final Nic nic;
    private final int qpn;
    private final QpType type;
    private final ProtectionDomain pd;
    private final CompletionQueue sendCq;
    private final CompletionQueue recvCq;
    private final int mtu;
    private int peerNode = -1;
    private int peerQpn = -1;
    ReliableSender sender;
    ReliableReceiver receiver;

    /** Messages this QP sent (requests and read/atomic responses), by message id. */
    final Long2ObjectHashMap<Outgoing> outgoing = new Long2ObjectHashMap<>();
    /** Send-queue entries awaiting their completion, in posting order. */
    final ArrayDeque<Outgoing> sendQueue = new ArrayDeque<>();
    final ArrayDeque<WorkRequest> recvQueue = new ArrayDeque<>();
    /** Incoming sends bound to the receive they consume, by the peer's message id. */
    final Long2ObjectHashMap<WorkRequest> boundReceives = new Long2ObjectHashMap<>();
    /** Incoming reads and atomics accepted, by the peer's message id, until answered. */
    final Long2ObjectHashMap<Incoming> incoming = new Long2ObjectHashMap<>();
    /**
     * Atomics already executed, by the peer's message id: a retransmitted request gets the same
     * answer. Any long is a possible answer, so presence is asked with containsKey, not a sentinel.
     */
    final Long2LongHashMap atomicReplay = new Long2LongHashMap(Long.MIN_VALUE);
    long nextMessageId = 1;
    boolean error;

    /** Posted messages not yet handed to the transport (or the wire, for UD), in posting order. */
    final ArrayDeque<Outgoing> pending = new ArrayDeque<>();
    /** The head of {@link #pending} waits for translation misses, or a UD datagram is leaving. */
    boolean sendBusy;
    /**
     * The page (IOTLB key) whose PRG Response last resumed this queue pair's stalled send, or -1:
     * a read that faults on it again is not stalled again (see {@link IommuDmaPath}).
     */
    long atsResumedPage = -1;
    /** The UD datagram on its way out, completed when its last bit has left. */
    Outgoing departing;
    /** A UD datagram read from memory whose IOMMU translation is not done yet, or null. */
    org.pagefabric.hw.net.Packet translating;
    private PageFault requesterFault;
    private PageFault responderFault;
    private PageFault requesterFailed;
    private PageFault responderFailed;
    private long requesterSuspendedPs;
    private long responderSuspendedPs;

    /** A message this QP sends. */
    static final class Outgoing {
        final long messageId;
        final WorkRequest wr;
        final int wireOp;
        /** For responses: the peer's request id; for reads/atomics: where the answer lands. */
        final long address;
        final long length;
        final MemoryRegion source;
        final long sourceAddress;
        final long operand0;
        final long operand1;
        /** UD: where the datagram goes; null on RC. */
        final AddressHandle destination;
        /** When the NIC has fetched the work request and may start the message. */
        long readyAt;
        /** Whether the start's translation lookups have been done (and their misses charged). */
        boolean translated;
        boolean transportDone;
        boolean answered;
        CompletionStatus status = CompletionStatus.SUCCESS;
        long value;
        /** Completed with the status's ordinal when the entry's completion is written, or null. */
        org.pagefabric.sim.process.Completion notify;

        Outgoing(long messageId, WorkRequest wr, int wireOp, long address, long length, MemoryRegion source,
                 long sourceAddress, long operand0, long operand1) {
            this(messageId, wr, wireOp, address, length, source, sourceAddress, operand0, operand1, null);
        }

        Outgoing(long messageId, WorkRequest wr, int wireOp, long address, long length, MemoryRegion source,
                 long sourceAddress, long operand0, long operand1, AddressHandle destination) {
            this.destination = destination;
            this.messageId = messageId;
            this.wr = wr;
            this.wireOp = wireOp;
            this.address = address;
            this.length = length;
            this.source = source;
            this.sourceAddress = sourceAddress;
            this.operand0 = operand0;
            this.operand1 = operand1;
        }

        boolean needsAnswer() {
            return wireOp == WireOp.READ_REQUEST || wireOp == WireOp.CMP_AND_SWP || wireOp == WireOp.FETCH_AND_ADD;
        }

        /** Whether the message's payload is read from the local buffer (write, send). */
        boolean readsLocal() {
            return wireOp == WireOp.WRITE || wireOp == WireOp.SEND;
        }
    }

    /** A read or atomic request from the peer, accepted and not yet answered. */
    record Incoming(int wireOp, MemoryRegion region, long address, long length) {
    }

    QueuePair(Nic nic, int qpn, QpType type, ProtectionDomain pd, CompletionQueue sendCq, CompletionQueue recvCq,
              int mtu) {
        this.nic = nic;
        this.mtu = mtu;
        this.qpn = qpn;
        this.type = type;
        this.pd = pd;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
    }

    /** Queue pair number, unique on its NIC; also its transport channel. */
    public int qpn() {
        return qpn;
    }

    /** The transport service. */
    public QpType type() {
        return type;
    }

    /** The protection domain whose keys this QP may use. */
    public ProtectionDomain pd() {
        return pd;
    }

    /** Where send-queue completions go. */
    public CompletionQueue sendCq() {
        return sendCq;
    }

    /** Where receive completions go. */
    public CompletionQueue recvCq() {
        return recvCq;
    }

    /** The NIC. */
    public Nic nic() {
        return nic;
    }

    /**
     * RC: when the peer's last explicit retransmission request (PART's ERR) reached this QP's
     * sender, or -1 if none has.
     */
    public long lastRetransmissionRequestPs() {
        return sender == null ? -1 : sender.lastRetransmissionRequestPs();
    }

    /** Whether the QP is in the error state (a failed message flushed everything after it). */
    public boolean inError() {
        return error;
    }

    /** UD: the largest datagram payload in bytes; 0 on RC (the transport's MTU applies). */
    public int mtu() {
        return mtu;
    }

    /** The outstanding fault of that kind, or null. */
    public PageFault fault(PageFaultKind kind) {
        return kind == PageFaultKind.REQUESTER ? requesterFault : responderFault;
    }

    void setFault(PageFaultKind kind, PageFault f) {
        if (kind == PageFaultKind.REQUESTER) {
            requesterFault = f;
        } else {
            responderFault = f;
        }
    }

    /** The fault of that kind the driver could not resolve and the next access refuses, or null. */
    PageFault failedFault(PageFaultKind kind) {
        return kind == PageFaultKind.REQUESTER ? requesterFailed : responderFailed;
    }

    void setFailedFault(PageFaultKind kind, PageFault f) {
        if (kind == PageFaultKind.REQUESTER) {
            requesterFailed = f;
        } else {
            responderFailed = f;
        }
    }

    /** Whether the send queue is suspended on a requester fault. */
    public boolean sendSuspended() {
        return requesterFault != null;
    }

    /** Whether the responder is suspended on a responder fault (RC answers RNR, UD drops). */
    public boolean responderSuspended() {
        return responderFault != null;
    }

    /** Picoseconds this QP spent suspended on resolved faults of that kind. */
    public long suspendedPs(PageFaultKind kind) {
        return kind == PageFaultKind.REQUESTER ? requesterSuspendedPs : responderSuspendedPs;
    }

    void addSuspended(PageFaultKind kind, long ps) {
        if (kind == PageFaultKind.REQUESTER) {
            requesterSuspendedPs += ps;
        } else {
            responderSuspendedPs += ps;
        }
    }

    /** The connected peer's node, or -1. */
    public int peerNode() {
        return peerNode;
    }

    /** The connected peer's queue pair number, or -1. */
    public int peerQpn() {
        return peerQpn;
    }

    void connected(int node, int qpn) {
        this.peerNode = node;
        this.peerQpn = qpn;
    }

    /** Posts a send-queue request (write, read, send, atomic) on an RC queue pair. */
    public void postSend(WorkRequest wr) {
        nic.postSend(this, wr, null, null);
    }

    /**
     * Posts a send-queue request and completes {@code executed}, with the ordinal of its
     * {@link org.pagefabric.hw.net.CompletionStatus}, when its completion is written, signaled or
     * not: how a runtime that posts window binds and invalidations unsignaled, so that they never
     * reach the completion queue the application reaps, learns that one took effect.
     */
    public void postSend(WorkRequest wr, org.pagefabric.sim.process.Completion executed) {
        nic.postSend(this, wr, null, executed);
    }

    /**
     * Posts a send on a UD queue pair to {@code destination}.
     *
     * @throws IllegalArgumentException if this QP is not UD, the request is not a send, or it is
     *                                  longer than {@link #mtu()}
     */
    public void postSend(WorkRequest wr, AddressHandle destination) {
        nic.postSend(this, wr, destination, null);
    }

    /** Posts a receive buffer for the peer's sends (RC) or for one datagram (UD). */
    public void postRecv(WorkRequest wr) {
        if (wr.opcode() != Opcode.RECV) {
            throw new IllegalArgumentException("postRecv takes RECV requests, not " + wr.opcode());
        }
        recvQueue.addLast(wr);
    }

    /** Receive buffers posted and not yet consumed. */
    public int postedReceives() {
        return recvQueue.size();
    }

    @Override
    public String toString() {
        return nic.name() + ".qp" + qpn;
    }
}
