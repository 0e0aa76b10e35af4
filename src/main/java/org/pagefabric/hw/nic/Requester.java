package org.pagefabric.hw.nic;

import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.hw.net.Packet;
import org.pagefabric.hw.net.TransportEndpoint;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.stat.Counter;

/**
 * The NIC's requester side: fetches posted work requests, starts a send queue's messages in
 * posting order (after their local buffer is mapped and the first packet's translation misses
 * are fetched), hands RC messages to the transport, sends UD datagrams, and fills the
 * transport's packets from local buffers (its DMA reads, also for read and atomic responses).
 */
final class Requester {
    private final Nic nic;
    private final Simulator sim;
    private final NicCosts costs;
    private final TransportEndpoint endpoint;
    private final KeyTable keys;
    private final DmaEngine dma;
    private final PageFaultUnit faults;
    private final AccessRefusals refusals;
    private final Completions completions;
    private final Counter messages;
    private final WindowOps windows;
    /** When the last RC payload read is available (its IOMMU translation done), or 0: see {@link #payload}. */
    private long payloadReadyAt;
    /** Whether the last refused payload read stalls the sender until a page response: see {@link #payload}. */
    private boolean payloadStalls;

    Requester(Nic nic, NicCosts costs, TransportEndpoint endpoint, KeyTable keys, DmaEngine dma, PageFaultUnit faults,
              AccessRefusals refusals, Completions completions, Counter messages, WindowOps windows) {
        this.windows = windows;
        this.nic = nic;
        this.sim = nic.simulator();
        this.costs = costs;
        this.endpoint = endpoint;
        this.keys = keys;
        this.dma = dma;
        this.faults = faults;
        this.refusals = refusals;
        this.completions = completions;
        this.messages = messages;
    }

    void postSend(QueuePair qp, WorkRequest wr, AddressHandle destination, org.pagefabric.sim.process.Completion notify) {
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
        if (wr.opcode().local()) {
            postLocal(qp, wr, notify);
            return;
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
            refusals.count(check);
            out.status = CompletionStatus.LOCAL_PROTECTION_ERROR;
            qp.error = true;
        }
        if (out.status != CompletionStatus.SUCCESS) {
            out.transportDone = true;
            completions.completeInOrder(qp);
            return;
        }
        qp.outgoing.put(out.messageId, out);
        long fetch = costs.doorbellPs() + costs.wqeProcessingPs() + (out.readsLocal() ? costs.dmaReadStartPs() : 0);
        out.readyAt = sim.now() + fetch;
        qp.pending.addLast(out);
        nic.scheduleEvent(fetch, Nic.START, qp.qpn());
    }

    /**
     * Queues a BIND_MW or LOCAL_INV request: fetched like any request plus its own processing, and
     * executed by {@link #advance} when it reaches the head of the send queue.
     */
    private void postLocal(QueuePair qp, WorkRequest wr, org.pagefabric.sim.process.Completion notify) {
        QueuePair.Outgoing out = new QueuePair.Outgoing(qp.nextMessageId++, wr, WireOp.NONE, 0, 0, null, 0, 0, 0);
        out.notify = notify;
        qp.sendQueue.addLast(out);
        if (qp.error) {
            out.status = CompletionStatus.FLUSHED;
            out.transportDone = true;
            completions.completeInOrder(qp);
            return;
        }
        long fetch = costs.doorbellPs() + costs.wqeProcessingPs() + windows.processingPs(wr.opcode());
        out.readyAt = sim.now() + fetch;
        qp.pending.addLast(out);
        nic.scheduleEvent(fetch, Nic.START, qp.qpn());
    }

    /**
     * Starts the send queue's ready messages in posting order, until one must wait: for its
     * translation misses, for a UD datagram to leave, or on a page fault.
     */
    void advance(QueuePair qp) {
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
            if (out.wireOp == WireOp.NONE) {
                qp.pending.pollFirst();
                CompletionStatus status = windows.execute(qp, out.wr);
                if (status != CompletionStatus.SUCCESS) {
                    qp.error = true;
                }
                finish(qp, out, status);
                continue;
            }
            // Checked on every attempt, also after the misses were fetched: a zap may have run meanwhile.
            boolean writesLocal = out.needsAnswer();
            long unmapped = DmaEngine.firstUnmapped(out.source, out.sourceAddress, out.length, writesLocal);
            if (unmapped >= 0) {
                if (!out.source.onDemand()) {
                    refusals.countUnmappedPinned();
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
                    nic.scheduleEvent(misses * costs.translationMissPs(), Nic.TRANSLATED, qp.qpn());
                    return;
                }
            }
            qp.pending.pollFirst();
            post(qp, out);
        }
    }

    /** A {@link Nic#TRANSLATED} event: the head message's translation misses are fetched. */
    void translated(QueuePair qp) {
        qp.sendBusy = false;
        advance(qp);
    }

    /** A {@link Nic#DEPARTED} event: the UD datagram's last bit has left; it completes. */
    void departed(QueuePair qp) {
        QueuePair.Outgoing out = qp.departing;
        qp.departing = null;
        qp.sendBusy = false;
        out.transportDone = true;
        completions.completeInOrder(qp);
        advance(qp);
    }

    /** A {@link Nic#DATAGRAM_READ} event: the datagram's payload is translated; it may leave. */
    void datagramRead(QueuePair qp) {
        Packet p = qp.translating;
        qp.translating = null;
        depart(qp, p);
    }

    private int mtu(QueuePair qp) {
        return qp.type() == QpType.UD ? qp.mtu() : qp.sender.config().mtuBytes();
    }

    /** Ends a message that never reached the wire. */
    private void finish(QueuePair qp, QueuePair.Outgoing out, CompletionStatus status) {
        out.status = status;
        out.transportDone = true;
        qp.outgoing.remove(out.messageId);
        completions.completeInOrder(qp);
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
            nic.scheduleEvent(ready - sim.now(), Nic.DATAGRAM_READ, qp.qpn());
            return;
        }
        depart(qp, p);
    }

    private void depart(QueuePair qp, Packet p) {
        long left = endpoint.sendDatagram(p);
        nic.scheduleEvent(left - sim.now(), Nic.DEPARTED, qp.qpn());
    }

    /** The transport's DMA read: fills a packet of one of this QP's messages. */
    boolean payload(QueuePair qp, Packet p) {
        payloadReadyAt = 0;
        payloadStalls = false;
        QueuePair.Outgoing out = qp.outgoing.get(p.messageId);
        if (out == null) {
            return false;
        }
        IommuDmaPath iommuPath = nic.iommuPath();
        switch (out.wireOp) {
            case WireOp.WRITE, WireOp.SEND, WireOp.READ_RESPONSE -> {
                if (out.source.iommuTranslated() && iommuPath != null) {
                    iommuPath.beginPacket(qp.qpn(), p, out.sourceAddress, out.length);
                }
                if (!dma.readPacket(out.source, out.sourceAddress + p.offset, p)) {
                    if (out.source.iommuTranslated()) {
                        // PART: the source's time-out recovers the block; ATS/PRI: the send waits for the page
                        payloadStalls = iommuPath.readRefused(qp, out.source, p, out.sourceAddress, out.length);
                        return false;
                    }
                    // Zapped after the message started: the transport resends the packet after its time-out.
                    PageFaultKind kind = out.wr == null ? PageFaultKind.RESPONDER : PageFaultKind.REQUESTER;
                    refusals.unmapped(kind, qp, out.source, dma.faultAddress(), out.sourceAddress + out.length, false);
                    return false;
                }
                if (out.source.iommuTranslated() && iommuPath != null) {
                    iommuPath.readDone(p);
                    qp.atsResumedPage = -1;
                }
                // An IOMMU-translated payload leaves once translated: the transport holds the packet until then.
                payloadReadyAt = dma.readyAt();
                return true;
            }
            case WireOp.READ_REQUEST -> WireOp.putLongs(p.bytes, out.length, 0);
            case WireOp.CMP_AND_SWP, WireOp.FETCH_AND_ADD -> WireOp.putLongs(p.bytes, out.operand0, out.operand1);
            case WireOp.ATOMIC_RESPONSE -> WireOp.putLongs(p.bytes, out.operand0, 0);
            default -> throw new IllegalStateException("unknown wire op " + out.wireOp);
        }
        p.hasBytes = true;
        return true;
    }

    /**
     * After {@link #payload} refused a read: whether the sender waits for the NIC to resume it
     * (a Page Request awaits its response) instead of its time-out.
     */
    boolean payloadStalls() {
        return payloadStalls;
    }

    /** When the payload of the last packet {@link #payload} filled is available, or 0 if at once. */
    long payloadReadyAt() {
        return payloadReadyAt;
    }
}
