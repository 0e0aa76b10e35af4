package org.pagefabric.hw.stack;

import org.agrona.collections.IntArrayQueue;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.sim.process.ProcessContext;

/**
 * A UDP socket: datagrams, no acknowledgement, no retransmission. A datagram longer than a
 * frame's payload is sent as IP fragments, one frame each, and reassembled at the receiver; a
 * missing fragment drops the datagram ({@code udp_dropped_incomplete}). A reassembled datagram
 * whose buffers do not fit the receive buffer is dropped ({@code udp_dropped_full}), as Linux
 * drops when the socket's queued truesize would exceed SO_RCVBUF. A sender blocks only while
 * every transmit buffer is taken.
 */
public final class UdpSocket extends Socket {
    private long nextId;
    /** Fragments of the datagram being reassembled, in order. */
    private final IntArrayQueue partial = new IntArrayQueue();
    /** Frames of each queued datagram, in queue order. */
    private final IntArrayQueue datagramFrames = new IntArrayQueue();
    private long partialId = -1;
    private int partialBytes;
    private long lastId = -1;
    private long received;

    UdpSocket(HostStack stack, int port) {
        super(stack, port);
    }

    /** Datagrams sent so far (the next datagram's identification). */
    public long sent() {
        return nextId;
    }

    /** Datagrams delivered to the application so far. */
    public long received() {
        return received;
    }

    /** The identification of the datagram the last {@link #recv} returned. */
    public long lastId() {
        return lastId;
    }

    /**
     * sendto(2): sends {@code length} bytes from {@code user} at {@code va} as one datagram
     * (fragmented if needed), blocking while no transmit buffer is free.
     */
    public void send(ProcessContext ctx, AddressSpace user, long va, int length) {
        stack.addWork(stack.costs.syscallPs());
        long id = nextId++;
        int offset = 0;
        do {
            int slot = stack.allocTx();
            if (slot < 0) {
                if (stack.hasWork()) {
                    charge(ctx);
                } else {
                    await(ctx, stack.txSpace());
                }
                continue;
            }
            int n = Math.min(stack.maxPayload, length - offset);
            FrameHeader.udp(stack.header, peerPort, n, id, offset, length);
            stack.writeHeader(slot);
            stack.copy(user, va + offset, stack.space, stack.tx.address(slot) + FrameHeader.SIZE, n);
            stack.addWork(stack.costs.copyPs(n));
            stack.transmit(slot, FrameHeader.SIZE + n, true);
            stack.holdTx(slot, false);
            offset += n;
            charge(ctx);
        } while (offset < length);
    }

    /**
     * recvfrom(2): waits for a datagram, copies up to {@code max} bytes of it into {@code user}
     * at {@code va} (the rest is discarded, as UDP truncates) and returns its length; -1 once
     * the socket is {@linkplain #close() closed} and nothing more can arrive.
     */
    public long recv(ProcessContext ctx, AddressSpace user, long va, long max) {
        stack.addWork(stack.costs.syscallPs());
        while (queue.isEmpty()) {
            if (stack.hasWork()) {
                charge(ctx);
            } else if (closed && !stack.receiving()) {
                return -1;
            } else {
                await(ctx, readable);
            }
        }
        int frames = datagramFrames.removeInt();
        long total = 0;
        long copied = 0;
        for (int f = 0; f < frames; f++) {
            int slot = queue.removeInt();
            lastId = stack.rxId[slot];
            int n = stack.rxLength[slot];
            int c = (int) Math.max(0, Math.min(n, max - copied));
            if (c > 0) {
                copyOut(user, va + copied, slot, stack.rxOffset[slot], c);
                stack.addWork(stack.costs.copyPs(c));
                copied += c;
            }
            total += n;
            queuedTruesize -= HostStack.SLOT;
            stack.recycle(slot);
        }
        received++;
        charge(ctx);
        return total;
    }

    private boolean closed;

    /**
     * No more datagrams are expected (the sender is done): {@link #recv} returns -1 once the
     * queue is empty and no frame waits in the receive path.
     */
    public void close() {
        closed = true;
        signal(readable);
    }

    @Override
    boolean input(int slot, byte[] h) {
        if (FrameHeader.proto(h) != FrameHeader.UDP) {
            return false;
        }
        long id = FrameHeader.seq(h);
        int offset = FrameHeader.fragOffset(h);
        int total = FrameHeader.total(h);
        int len = FrameHeader.length(h);
        if (offset == 0) {
            dropPartial();
        } else if (id != partialId || offset != partialBytes) {
            dropPartial();
            return false; // a fragment of a datagram whose start was lost
        }
        partialId = id;
        stack.rxId[slot] = id;
        partial.addInt(slot);
        partialBytes += len;
        if (partialBytes < total) {
            return true;
        }
        int frames = partial.size();
        if (queuedTruesize + (long) frames * HostStack.SLOT > stack.costs.recvBuffer()) {
            stack.udpDroppedFull.increment();
            while (!partial.isEmpty()) {
                stack.recycle(partial.removeInt());
            }
        } else {
            datagramFrames.addInt(frames);
            while (!partial.isEmpty()) {
                queue.addInt(partial.removeInt());
                queuedTruesize += HostStack.SLOT;
            }
            signal(readable);
        }
        partialId = -1;
        partialBytes = 0;
        return true;
    }

    private void dropPartial() {
        if (!partial.isEmpty()) {
            stack.udpDroppedIncomplete.increment();
            while (!partial.isEmpty()) {
                stack.recycle(partial.removeInt());
            }
        }
        partialId = -1;
        partialBytes = 0;
    }

    @Override
    void onTimer(int kind) {
        // UDP arms no timers
    }
}
