package org.pagefabric.hw.nic;

import java.util.ArrayDeque;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.hw.net.Packet;
import org.pagefabric.hw.net.SinkVerdict;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.stat.Counter;

/**
 * The NIC's responder side, what the transport's receivers deliver to: places writes, sends,
 * read and atomic responses into host memory (checking keys, bounds and rights), accepts read
 * requests and executes atomics once (a replay cache answers a retransmitted atomic without
 * executing it again), answers RECEIVER_NOT_READY while an on-demand fault is resolved, places
 * UD datagrams, and posts read and atomic responses once their request is delivered.
 */
final class Responder {
    private final Nic nic;
    private final Simulator sim;
    private final NicCosts costs;
    private final KeyTable keys;
    private final DmaEngine dma;
    private final AccessRefusals refusals;
    private final Completions completions;
    private final Counter udNoReceive;
    private final Counter udNotPresent;
    private final Counter udReceived;
    /** Responses waiting for their DMA read to start, with their QPs, in order. */
    private final ArrayDeque<QueuePair.Outgoing> responding = new ArrayDeque<>();
    private final ArrayDeque<QueuePair> respondingQp = new ArrayDeque<>();
    private final byte[] scratch = new byte[WireOp.REQUEST_BYTES];
    /** When the last RC packet placed reaches memory (its IOMMU translation done), or 0: see {@link #place}. */
    private long placedAt;
    /** The region the last {@link #remoteCheck} reached (directly or through a window), or null. */
    private MemoryRegion reached;
    private final Counter windowRefused;

    Responder(Nic nic, NicCosts costs, KeyTable keys, DmaEngine dma, AccessRefusals refusals, Completions completions,
              Counter udNoReceive, Counter udNotPresent, Counter udReceived, Counter windowRefused) {
        this.windowRefused = windowRefused;
        this.nic = nic;
        this.sim = nic.simulator();
        this.costs = costs;
        this.keys = keys;
        this.dma = dma;
        this.refusals = refusals;
        this.completions = completions;
        this.udNoReceive = udNoReceive;
        this.udNotPresent = udNotPresent;
        this.udReceived = udReceived;
    }

    /** The transport's DMA write: places one packet, or refuses it with a reason. */
    SinkVerdict place(QueuePair qp, Packet p) {
        placedAt = 0;
        switch (p.opcode) {
            case WireOp.WRITE -> {
                AccessCheck c = remoteCheck(qp, p.key, p.address, p.messageLength, AccessFlags.REMOTE_WRITE);
                if (c != AccessCheck.OK) {
                    return refuse(c);
                }
                MemoryRegion mr = reached;
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
                long length = WireOp.getLong(p.bytes, 0);
                AccessCheck c = remoteCheck(qp, p.key, p.address, length, AccessFlags.REMOTE_READ);
                if (c != AccessCheck.OK) {
                    return refuse(c);
                }
                MemoryRegion mr = reached;
                if (qp.responderSuspended()) {
                    return SinkVerdict.RECEIVER_NOT_READY;
                }
                // The whole range must be mapped before the response starts (mlx5's RDMA-read responder fault).
                long unmapped = DmaEngine.firstUnmapped(mr, p.address, length, false);
                if (unmapped >= 0) {
                    return retryOrRefuse(refusals.unmapped(PageFaultKind.RESPONDER, qp, mr, unmapped,
                            p.address + length, false));
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
                    req.value = WireOp.getLong(p.bytes, 0);
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

    /**
     * Checks a remote access through {@code key}: a region's key as before, or a memory window's
     * ({@link KeyTable#checkWindow}: the window's checks, then its region's), and leaves the
     * region the access reaches in {@link #reached}. An access refused through a key whose index
     * holds a window (a revoked window, or a key from before its last bind) is also counted as a
     * refused window access.
     */
    private AccessCheck remoteCheck(QueuePair qp, int key, long va, long len, int needed) {
        MemoryRegion mr = keys.byRkey(key);
        if (mr != null) {
            reached = mr;
            return KeyTable.check(mr, qp.pd(), va, len, needed);
        }
        MemoryWindow mw = keys.windowAt(key);
        if (mw == null) {
            reached = null;
            return AccessCheck.BAD_KEY;
        }
        AccessCheck c = KeyTable.checkWindow(mw.rkey() == key ? mw : null, qp, va, len, needed);
        reached = mw.region();
        if (c != AccessCheck.OK) {
            windowRefused.increment();
        }
        return c;
    }

    /** When the last packet {@link #place} accepted reaches memory, or 0 if at once. */
    long placedAt() {
        return placedAt;
    }

    private SinkVerdict atomic(QueuePair qp, Packet p) {
        AccessCheck c = (p.address & 7) != 0 ? AccessCheck.OUT_OF_BOUNDS
                : remoteCheck(qp, p.key, p.address, 8, AccessFlags.REMOTE_ATOMIC);
        if (c != AccessCheck.OK) {
            return refuse(c);
        }
        MemoryRegion mr = reached;
        if (qp.responderSuspended()) {
            return SinkVerdict.RECEIVER_NOT_READY;
        }
        long old;
        if (qp.atomicReplay.containsKey(p.messageId)) {
            old = qp.atomicReplay.get(p.messageId); // a retransmitted request: answer again, do not execute twice
        } else {
            // A write that fails writes nothing, so a read-only page faults here without changing memory.
            if (!dma.read(mr, p.address, scratch, 0, 8)) {
                return retryOrRefuse(refusals.unmapped(PageFaultKind.RESPONDER, qp, mr, dma.faultAddress(),
                        p.address + 8, true));
            }
            old = WireOp.getLong(scratch, 0);
            long operand = WireOp.getLong(p.bytes, 0);
            long next = p.opcode == WireOp.FETCH_AND_ADD ? old + operand
                    : (old == operand ? WireOp.getLong(p.bytes, 8) : old);
            WireOp.putLongs(scratch, next, 0);
            if (!dma.write(mr, p.address, scratch, 0, 8)) {
                return retryOrRefuse(refusals.unmapped(PageFaultKind.RESPONDER, qp, mr, dma.faultAddress(),
                        p.address + 8, true));
            }
            qp.atomicReplay.put(p.messageId, old);
        }
        qp.incoming.put(p.messageId, new QueuePair.Incoming(WireOp.ATOMIC_RESPONSE, null, old, 8));
        return SinkVerdict.ACCEPT;
    }

    /** Places a packet at {@code va}; a non-present entry faults the QP side {@code kind}. */
    private SinkVerdict write(QueuePair qp, PageFaultKind kind, MemoryRegion mr, long va, long end, Packet p) {
        IommuDmaPath iommuPath = nic.iommuPath();
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
        return retryOrRefuse(refusals.unmapped(kind, qp, mr, dma.faultAddress(), end, true));
    }

    /** RC's answer to a non-present entry: RNR while an on-demand fault is resolved, an access error otherwise. */
    private static SinkVerdict retryOrRefuse(boolean onDemand) {
        return onDemand ? SinkVerdict.RECEIVER_NOT_READY : SinkVerdict.ACCESS_ERROR;
    }

    private SinkVerdict refuse(AccessCheck c) {
        refusals.count(c);
        return SinkVerdict.ACCESS_ERROR;
    }

    /**
     * A datagram for UD queue pair {@code qp}: placed into the oldest posted receive, or dropped
     * (no receive; target page not present, which raises a responder fault; responder suspended).
     * A receive whose buffer is too small or whose key fails is consumed with an error, as verbs
     * complete it (local length or protection error).
     */
    SinkVerdict datagram(QueuePair qp, Packet p) {
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
            refusals.count(c);
            qp.recvQueue.pollFirst();
            completions.complete(new WorkCompletion(recv.wrId(), Opcode.RECV, CompletionStatus.LOCAL_PROTECTION_ERROR,
                    0, qp.qpn(), sim.now() + costs.completionPs(), 0), qp.recvCq());
            return SinkVerdict.ACCESS_ERROR;
        }
        if (!dma.writeTimed(mr, recv.localAddress(), p.bytes, 0, p.length)) {
            if (!mr.iommuTranslated()) {
                refusals.unmapped(PageFaultKind.RESPONDER, qp, mr, dma.faultAddress(),
                        recv.localAddress() + p.length, true);
            }
            udNotPresent.increment();
            return SinkVerdict.DROP;
        }
        qp.recvQueue.pollFirst();
        udReceived.increment();
        long ready = dma.readyAt();
        if (ready > sim.now()) {
            // The data reaches memory once the IOMMU has translated the receive buffer: the completion follows it.
            completions.completeAfter(ready, new WorkCompletion(recv.wrId(), Opcode.RECV, CompletionStatus.SUCCESS,
                    p.length, qp.qpn(), ready + costs.completionPs(), AddressHandle.pack(p.src, (int) p.address)),
                    qp.recvCq());
            return SinkVerdict.ACCEPT;
        }
        completions.complete(new WorkCompletion(recv.wrId(), Opcode.RECV, CompletionStatus.SUCCESS, p.length, qp.qpn(),
                sim.now() + costs.completionPs(), AddressHandle.pack(p.src, (int) p.address)), qp.recvCq());
        return SinkVerdict.ACCEPT;
    }

    /** The transport delivered message {@code id} of the peer (all its packets placed). */
    void delivered(QueuePair qp, long id, long len, int opcode, long addr) {
        switch (opcode) {
            case WireOp.SEND -> {
                WorkRequest recv = qp.boundReceives.remove(id);
                if (recv != null) {
                    completions.complete(new WorkCompletion(recv.wrId(), Opcode.RECV, CompletionStatus.SUCCESS, len,
                            qp.qpn(), sim.now() + costs.completionPs(), 0), qp.recvCq());
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
                nic.scheduleEvent(costs.dmaReadStartPs(), Nic.RESPOND, 0);
            }
            case WireOp.READ_RESPONSE, WireOp.ATOMIC_RESPONSE -> {
                QueuePair.Outgoing req = qp.outgoing.get(addr);
                if (req != null) {
                    req.answered = true;
                    completions.completeInOrder(qp);
                }
            }
            default -> {
                // RDMA writes complete only at the requester.
            }
        }
    }

    /** A {@link Nic#RESPOND} event: the oldest response's DMA read has started; the transport sends it. */
    void respond() {
        QueuePair qp = respondingQp.pollFirst();
        QueuePair.Outgoing out = responding.pollFirst();
        if (qp.sender.isFailed()) {
            qp.outgoing.remove(out.messageId);
        } else {
            qp.sender.post(out.messageId, out.length, out.address, out.wireOp, 0);
        }
    }
}
