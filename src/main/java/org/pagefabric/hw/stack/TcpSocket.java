package org.pagefabric.hw.stack;

import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.sim.process.ProcessContext;

/**
 * A TCP connection end (Reno-like): byte sequence numbers, cumulative acknowledgements, a
 * receive window, slow start and additive increase / multiplicative decrease of the congestion
 * window, fast retransmit on three duplicate acknowledgements and retransmission on time-out.
 *
 * <p><b>Sender.</b> Data is copied into transmit buffers, one segment of at most
 * {@link #mss()} bytes per buffer; a buffer is held until its segment is acknowledged (the
 * send buffer, {@code stack.socket.send_buffer}). A partial segment waits while data is
 * unacknowledged (Nagle), so small writes are coalesced. At most min(cwnd, peer's window)
 * bytes are in flight. The congestion window starts at {@code stack.tcp.initial_window}
 * segments and grows by one segment per acknowledgement below ssthresh (slow start, RFC 3465
 * with L = 1), by MSS²/cwnd above it. Three duplicate acknowledgements halve it (ssthresh =
 * max(flight / 2, 2 MSS), cwnd = ssthresh) once per window of data (NewReno's recovery point);
 * a time-out sets cwnd to one segment and doubles the time-out. Either way the sender goes back
 * to the first unacknowledged segment, because the receiver keeps no out-of-order segments.
 *
 * <p><b>Receiver.</b> An in-order segment is queued for the application if its buffer fits
 * the receive buffer; anything else (out of order, duplicate, no room) is discarded and answered
 * with an immediate acknowledgement, which is a duplicate one for the sender. In-order segments
 * are acknowledged every second segment, or after {@code stack.tcp.delayed_ack}. The window
 * advertised is the free receive buffer in whole frame buffers times the MSS; reading data that
 * opens it by two segments or more sends a window update.
 */
public final class TcpSocket extends Socket {
    private static final int RTO = 0;
    private static final int DELACK = 1;
    private static final int DUP_ACK_THRESHOLD = 3;
    /** Consecutive time-outs beyond which the time-out stops doubling (2^6 times the base). */
    private static final int MAX_BACKOFF = 6;

    private final int mss;
    // ------------------------------------------------------------------ sender
    private final int[] segSlot;
    private final int[] segLen;
    private final long[] segSeq;
    private int head;
    private int count;
    /** Segments from the head already sent since the last go-back (the next to send is at this offset). */
    private int sentSegs;
    private long sndUna;
    private long sndNxt;
    private long sndMax;
    private long writeSeq;
    private long cwnd;
    private long ssthresh = Long.MAX_VALUE / 4;
    private long peerWindow;
    private int dupAcks;
    private long recover;
    private int backoff;
    private boolean rtoArmed;
    private long rtoDeadline;
    // ------------------------------------------------------------------ receiver
    private long rcvNxt;
    private int unackedSegments;
    private boolean delackArmed;
    private long delackDeadline;
    private long lastAdvertised;
    private long delivered;

    TcpSocket(HostStack stack, int port) {
        super(stack, port);
        this.mss = stack.maxPayload;
        int cap = (int) Math.max(2, stack.costs.sendBuffer() / mss);
        segSlot = new int[cap];
        segLen = new int[cap];
        segSeq = new long[cap];
        cwnd = (long) stack.costs.initialWindow() * mss;
    }

    void start(long peerWindow) {
        this.peerWindow = peerWindow;
        this.lastAdvertised = advertisedWindow();
    }

    /** The maximum segment size: a frame's payload. */
    public int mss() {
        return mss;
    }

    /** The congestion window in bytes. */
    public long cwnd() {
        return cwnd;
    }

    /** The slow-start threshold in bytes (very large until the first loss). */
    public long ssthresh() {
        return ssthresh;
    }

    /** Bytes sent and not yet acknowledged. */
    public long inFlight() {
        return sndMax - sndUna;
    }

    /** Bytes acknowledged by the peer. */
    public long acknowledged() {
        return sndUna;
    }

    /** Bytes delivered in order to this end's application so far. */
    public long delivered() {
        return delivered;
    }

    // ------------------------------------------------------------------ application calls

    /**
     * send(2): copies {@code length} bytes from {@code user} at {@code va} into the send buffer,
     * blocking while it is full, and sends what the windows allow.
     */
    public void send(ProcessContext ctx, AddressSpace user, long va, long length) {
        stack.addWork(stack.costs.syscallPs());
        long done = 0;
        while (done < length) {
            int last = count == 0 ? -1 : idx(count - 1);
            int n;
            if (last >= 0 && count - 1 >= sentSegs && segLen[last] < mss) {
                n = (int) Math.min(mss - segLen[last], length - done);
                append(user, va + done, last, n);
            } else if (count < segSlot.length && writeSeq - sndUna + mss <= stack.costs.sendBuffer()
                    && (last = stack.allocTx()) >= 0) {
                int i = idx(count);
                segSlot[i] = last;
                segLen[i] = 0;
                segSeq[i] = writeSeq;
                count++;
                stack.holdTx(last, true);
                n = (int) Math.min(mss, length - done);
                append(user, va + done, i, n);
            } else {
                output();
                if (stack.hasWork()) {
                    charge(ctx); // time passes: re-check before waiting, or a wake-up could be missed
                } else {
                    await(ctx, count < segSlot.length ? stack.txSpace() : writable);
                }
                continue;
            }
            done += n;
            output();
            charge(ctx);
        }
    }

    private void append(AddressSpace user, long va, int i, int n) {
        int slot = segSlot[i];
        stack.copy(user, va, stack.space, stack.tx.address(slot) + FrameHeader.SIZE + segLen[i], n);
        stack.addWork(stack.costs.copyPs(n));
        segLen[i] += n;
        writeSeq += n;
    }

    /**
     * recv(2): waits for data, then copies up to {@code max} bytes into {@code user} at
     * {@code va}; returns the bytes copied.
     */
    public long recv(ProcessContext ctx, AddressSpace user, long va, long max) {
        stack.addWork(stack.costs.syscallPs());
        while (queue.isEmpty()) {
            if (stack.hasWork()) {
                charge(ctx);
            } else {
                await(ctx, readable);
            }
        }
        long done = 0;
        while (done < max && !queue.isEmpty()) {
            int slot = queue.peekInt();
            int n = (int) Math.min(stack.rxLength[slot], max - done);
            copyOut(user, va + done, slot, stack.rxOffset[slot], n);
            stack.addWork(stack.costs.copyPs(n));
            done += n;
            if (n < stack.rxLength[slot]) {
                // A partly read buffer stays at the head for the next recv.
                stack.rxOffset[slot] += n;
                stack.rxLength[slot] -= n;
            } else {
                queue.removeInt();
                queuedTruesize -= HostStack.SLOT;
                stack.recycle(slot);
            }
        }
        delivered += done;
        long window = advertisedWindow();
        if (window - lastAdvertised >= 2L * mss) {
            sendAck(FrameHeader.WINDOW_UPDATE);
        }
        charge(ctx);
        return done;
    }

    // ------------------------------------------------------------------ sender internals

    private int idx(int k) {
        return (head + k) % segSlot.length;
    }

    /** Sends the segments the windows allow, from the first unsent one. */
    private void output() {
        while (sentSegs < count) {
            int i = idx(sentSegs);
            long seq = segSeq[i];
            int len = segLen[i];
            boolean retransmission = seq < sndMax;
            if (!retransmission && len < mss && sentSegs == count - 1 && sndUna < sndMax) {
                return; // Nagle: a partial segment waits for the outstanding data's acknowledgement
            }
            if (seq + len - sndUna > Math.min(cwnd, peerWindow)) {
                if (sndUna == sndMax) {
                    armRto(); // zero window: probe when the timer expires
                }
                return;
            }
            sendSegment(i, retransmission);
        }
    }

    private void sendSegment(int i, boolean retransmission) {
        int slot = segSlot[i];
        FrameHeader.tcp(stack.header, peerPort, (byte) 0, segLen[i], segSeq[i], rcvNxt, advertisedWindow());
        stack.writeHeader(slot);
        stack.transmit(slot, FrameHeader.SIZE + segLen[i], true);
        if (retransmission) {
            stack.retransmitted.increment();
        }
        sentSegs++;
        sndNxt = segSeq[i] + segLen[i];
        if (sndNxt > sndMax) {
            sndMax = sndNxt;
        }
        if (!rtoArmed) {
            armRto();
        }
    }

    private void armRto() {
        rtoArmed = true;
        long rto = stack.costs.rtoPs() << Math.min(backoff, MAX_BACKOFF);
        rtoDeadline = stack.simulator().now() + rto;
        stack.timer(port, RTO, rto);
    }

    /** Back to the first unacknowledged segment (the receiver discarded what followed a hole). */
    private void goBack() {
        sentSegs = 0;
        sndNxt = sndUna;
    }

    private void ackInput(long ack, int window, byte flags) {
        peerWindow = window;
        if (ack > sndUna && ack <= sndMax) {
            long acked = ack - sndUna;
            while (count > 0 && segSeq[head] + segLen[head] <= ack) {
                stack.holdTx(segSlot[head], false);
                head = (head + 1) % segSlot.length;
                count--;
                sentSegs = Math.max(0, sentSegs - 1);
            }
            sndUna = ack;
            if (sndNxt < ack) {
                sndNxt = ack;
            }
            dupAcks = 0;
            backoff = 0;
            if (cwnd < ssthresh) {
                cwnd += Math.min(acked, mss);
            } else {
                cwnd += Math.max(1, (long) mss * mss / cwnd);
            }
            if (sndUna < sndMax) {
                armRto();
            } else {
                rtoArmed = false;
            }
            signal(writable);
        } else if (ack == sndUna && sndMax > sndUna && flags != FrameHeader.WINDOW_UPDATE) {
            if (++dupAcks == DUP_ACK_THRESHOLD && sndUna >= recover) {
                stack.fastRetransmits.increment();
                halve();
                cwnd = ssthresh;
                goBack();
            }
        }
        output();
    }

    private void halve() {
        ssthresh = Math.max((sndMax - sndUna) / 2, 2L * mss);
        recover = sndMax;
    }

    @Override
    void onTimer(int kind) {
        long now = stack.simulator().now();
        if (kind == RTO) {
            if (!rtoArmed) {
                return;
            }
            if (now < rtoDeadline) {
                stack.timer(port, RTO, rtoDeadline - now);
                return;
            }
            rtoArmed = false;
            if (sndUna < sndMax) {
                stack.timeouts.increment();
                halve();
                cwnd = mss;
                backoff++;
                dupAcks = 0;
                goBack();
                output();
            } else if (sentSegs < count) {
                sendSegment(idx(sentSegs), false); // window probe: the receiver answers with its window
            }
        } else {
            if (!delackArmed) {
                return;
            }
            if (now < delackDeadline) {
                stack.timer(port, DELACK, delackDeadline - now);
                return;
            }
            sendAck((byte) 0);
        }
    }

    // ------------------------------------------------------------------ receiver internals

    /** Free receive buffer as a window: whole frame buffers times the MSS. */
    long advertisedWindow() {
        long free = stack.costs.recvBuffer() - queuedTruesize;
        return Math.max(0, free / HostStack.SLOT) * mss;
    }

    @Override
    boolean input(int slot, byte[] h) {
        if (FrameHeader.proto(h) != FrameHeader.TCP) {
            return false;
        }
        long seq = FrameHeader.seq(h);
        int len = FrameHeader.length(h);
        byte flags = FrameHeader.flags(h);
        long ack = FrameHeader.ack(h);
        int window = FrameHeader.window(h);
        if (len == 0) {
            ackInput(ack, window, flags);
            return false;
        }
        ackInput(ack, window, FrameHeader.WINDOW_UPDATE); // a data segment's acknowledgement is never a duplicate
        if (seq != rcvNxt || queuedTruesize + HostStack.SLOT > stack.costs.recvBuffer()) {
            stack.outOfOrder.increment();
            sendAck((byte) 0);
            return false;
        }
        queue.addInt(slot);
        queuedTruesize += HostStack.SLOT;
        rcvNxt += len;
        signal(readable);
        if (++unackedSegments >= 2) {
            sendAck((byte) 0);
        } else if (!delackArmed) {
            delackArmed = true;
            delackDeadline = stack.simulator().now() + stack.costs.delayedAckPs();
            stack.timer(port, DELACK, stack.costs.delayedAckPs());
        }
        return true;
    }

    private void sendAck(byte flags) {
        int slot = stack.allocTx();
        if (slot < 0) {
            // no buffer for the acknowledgement now: the delayed-ACK timer tries again
            if (!delackArmed) {
                delackArmed = true;
                delackDeadline = stack.simulator().now() + stack.costs.delayedAckPs();
                stack.timer(port, DELACK, stack.costs.delayedAckPs());
            }
            return;
        }
        long window = advertisedWindow();
        FrameHeader.tcp(stack.header, peerPort, flags, 0, sndNxt, rcvNxt, window);
        stack.writeHeader(slot);
        stack.transmit(slot, FrameHeader.SIZE, false);
        stack.holdTx(slot, false);
        lastAdvertised = window;
        unackedSegments = 0;
        delackArmed = false;
    }
}
