package org.pagefabric.hw.net;

import static org.pagefabric.hw.net.SenderWindow.ACKED;
import static org.pagefabric.hw.net.SenderWindow.FREE;
import static org.pagefabric.hw.net.SenderWindow.QUEUED;
import static org.pagefabric.hw.net.SenderWindow.SENDING;

import java.util.Arrays;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.stat.Counter;

/**
 * The sending half of a reliable connection: segments posted messages into blocks and MTU
 * packets, paces them onto the network one packet per serialization time, keeps up to
 * {@link TransportConfig#windowBlocks} blocks unacknowledged, and recovers from loss,
 * corruption, NACKs and explicit retransmission requests in {@link RetransmissionMode selective}
 * or {@link RetransmissionMode#GO_BACK_N go-back-N} fashion. Messages complete in the order
 * they were posted.
 *
 * <p>Time-outs run in {@link Band#TIMEOUT}, so an ACK arriving at the very picosecond a timer
 * expires wins. Timers are cancelled (O(1)) as soon as they are moot.
 *
 * <p>State is struct-of-arrays: a ring of messages indexed by message sequence number
 * ({@link SenderMessages}), a ring of window slots indexed by block sequence number
 * ({@link SenderWindow}) and, when selective, a {@link RetransmissionQueue}, so steady traffic
 * allocates nothing. This class admits blocks into the window, paces packets onto the network,
 * dispatches ACKs, NACKs and timer events, slides the window and completes or fails messages;
 * recovery is {@link SelectiveRepeat}'s or {@link GoBackN}'s, which schedule their timers as
 * this sender's events, so the event stream is the same as if they were inlined here.
 */
public final class ReliableSender extends Component {
    private static final int PUMP = 1;
    /** A selective block's time-out (arg: the block). */
    static final int BLOCK_TIMEOUT = 2;
    /** Go-back-N's window time-out. */
    static final int WINDOW_TIMEOUT = 3;
    /** An RNR back-off has ended (arg: the block, selective; the packet to resume from, go-back-N). */
    static final int RNR_RESUME = 4;
    /** No retransmission request came for a PAGE_FAULT NACK (arg: the block, selective). */
    static final int FAULT_WAIT_EXPIRED = 5;
    /** A held packet's payload is available ({@link PayloadSource#readyAt}): it leaves now. */
    private static final int PAYLOAD_READY = 6;
    /** The block issuer has issued a block again (arg: the block, selective). */
    static final int REISSUED = 7;

    private final Network net;
    private final PacketPool pool;
    private final TransportConfig cfg;
    private final int node;
    private final int peerNode;
    private final int peerChannel;
    private final PayloadSource source;
    private final CompletionListener listener;
    private final boolean selective;
    private final int window;
    private final int mtu;
    private final int blockBytes;

    /** Posted messages not yet completed. */
    private final SenderMessages msgs;
    /** Message and block that enter the window next. */
    private long loadMsn;
    private int loadBlock;
    /** Blocks in flight. */
    private final SenderWindow win;
    private long nextPsn;

    /** Block being transmitted (-1: none) and its next packet. */
    private long curBsn = -1;
    private int curPkt;

    /** Selective recovery, or null when go-back-N. */
    private final SelectiveRepeat sel;

    /** Go-back-N's recovery state, or null when selective. */
    private final GoBackN gbn;

    private boolean pumpScheduled;
    /** A packet read but waiting for its payload to be available, or null. */
    private Packet held;
    /** Whether transmission waits for the payload source to {@link #resume()} (a stalled read). */
    private boolean stalled;
    private boolean failed;
    /** When the last explicit retransmission request arrived, or -1. */
    private long lastErrPs = -1;

    private final Counter dataPackets;
    private final Counter dataBytes;
    private final Counter retransmitted;
    private final Counter timeouts;
    private final Counter[] nacks = new Counter[NackReason.values().length];
    private final Counter errs;
    private final Counter acks;
    private final Counter corruptControl;
    private final Counter sourceFaults;
    private final Counter completed;
    private final Counter failedMessages;
    private final Counter retryLimitFailures;

    ReliableSender(Simulator sim, Component parent, String localName, Network net, TransportConfig cfg, int node,
                   int peerNode, int peerChannel, PayloadSource source, CompletionListener listener) {
        super(sim, parent, localName);
        this.net = net;
        this.pool = net.pool();
        this.cfg = cfg;
        this.node = node;
        this.peerNode = peerNode;
        this.peerChannel = peerChannel;
        this.source = source;
        this.listener = listener;
        this.selective = cfg.mode() == RetransmissionMode.SELECTIVE;
        this.window = cfg.windowBlocks();
        this.mtu = cfg.mtuBytes();
        this.blockBytes = cfg.blockBytes();
        win = new SenderWindow(sim, window);
        msgs = new SenderMessages(16);
        dataPackets = counter("dataPackets", "packets", "DATA packets sent, retransmissions included");
        dataBytes = counter("dataBytes", "bytes", "payload bytes sent, retransmissions included");
        retransmitted = counter("retransmittedPackets", "packets", "DATA packets sent again");
        timeouts = counter("timeouts", "count", "retransmission time-outs that fired");
        for (NackReason r : NackReason.values()) {
            nacks[r.ordinal()] = counter("nacks." + r.name().toLowerCase(java.util.Locale.ROOT), "packets",
                    "NACKs received with reason " + r);
        }
        errs = counter("retransmissionRequests", "packets", "explicit retransmission requests received");
        acks = counter("acks", "packets", "ACKs received");
        corruptControl = counter("corruptControl", "packets", "control packets dropped for a bad checksum");
        sourceFaults = counter("sourceFaults", "packets", "packets not sent because the payload read faulted");
        completed = counter("completed", "messages", "messages completed successfully");
        failedMessages = counter("failed", "messages", "messages completed with an error or flushed");
        retryLimitFailures = counter("retryLimitFailures", "connections",
                "connections failed because a block exhausted its retry or RNR retry limit (the transport gave up)");
        sel = selective ? new SelectiveRepeat(this, sim, cfg, win, timeouts) : null;
        gbn = selective ? null : new GoBackN(this, sim, cfg, win, timeouts);
    }

    /**
     * Posts a message for transmission.
     *
     * @param messageId an id the completion and the receiver's delivery will name
     * @param length    bytes (0 sends one empty packet)
     * @param address   carried to the receiver in every packet (e.g. the remote virtual address)
     * @param opcode    carried to the receiver in every packet (e.g. RDMA write)
     * @throws IllegalStateException if the connection has failed
     */
    public void post(long messageId, long length, long address, int opcode) {
        post(messageId, length, address, opcode, 0);
    }

    /**
     * Posts a message whose packets also carry a memory key (the RDMA header's rkey), which the
     * receiver's sink checks on every packet.
     *
     * @param key carried to the receiver in every packet
     */
    public void post(long messageId, long length, long address, int opcode, int key) {
        if (failed) {
            throw new IllegalStateException(name() + " is in error after a failed message; it takes no more posts");
        }
        if (length < 0) {
            throw new IllegalArgumentException("negative message length " + length);
        }
        long blocks = Math.max(1, Math.ceilDiv(length, blockBytes));
        if (blocks > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("message of " + length + " B has too many blocks");
        }
        msgs.add(messageId, length, address, opcode, key, (int) blocks);
        kick();
    }

    /** When the last explicit retransmission request from the receiver arrived, or -1 if none has. */
    public long lastRetransmissionRequestPs() {
        return lastErrPs;
    }

    /** Messages posted and not yet completed. */
    public long outstandingMessages() {
        return msgs.outstanding();
    }

    /** Whether a message failed and the connection is in error. */
    public boolean isFailed() {
        return failed;
    }

    /** The configuration. */
    public TransportConfig config() {
        return cfg;
    }

    /**
     * The payload source can read again after a stalled read ({@link PayloadSource#stalls()}):
     * transmission goes on from the packet that stalled, whose block had no time-out armed
     * meanwhile. Nothing happens when no read stalled.
     */
    public void resume() {
        if (stalled) {
            stalled = false;
            kick();
        }
    }

    /** Whether transmission waits for {@link #resume()}. */
    public boolean isStalled() {
        return stalled;
    }

    void kick() {
        if (!pumpScheduled && !failed) {
            pumpScheduled = true;
            sim.schedule(0, this, PUMP, 0);
        }
    }

    @Override
    public void handle(int type, long arg) {
        switch (type) {
            case PUMP -> {
                pumpScheduled = false;
                pump();
            }
            case BLOCK_TIMEOUT -> sel.blockTimeout(arg);
            case WINDOW_TIMEOUT -> gbn.windowTimeout();
            case RNR_RESUME -> rnrResume(arg);
            case FAULT_WAIT_EXPIRED -> faultWaitExpired(arg);
            case PAYLOAD_READY -> payloadReady();
            case REISSUED -> sel.reissued(arg);
            default -> throw new IllegalStateException("unknown sender event " + type);
        }
    }

    // ---- transmission ----

    /** Sends one packet and comes back when it has left, so the link never queues our own backlog. */
    private void pump() {
        if (failed || stalled || !selectPacket()) {
            return;
        }
        long end = sendPacket();
        if (stalled) {
            return; // resume() kicks the pump again
        }
        pumpScheduled = true;
        sim.schedule(end - sim.now(), this, held != null ? PAYLOAD_READY : PUMP, 0);
    }

    /** The held packet's payload is available: it leaves, and the pump goes on once it has. */
    private void payloadReady() {
        Packet p = held;
        held = null;
        if (failed) {
            pool.release(p);
            pumpScheduled = false;
            return;
        }
        long end = net.send(p);
        sim.schedule(end - sim.now(), this, PUMP, 0);
    }

    private boolean selectPacket() {
        if (curBsn >= 0) {
            return true;
        }
        if (selective) {
            long b = sel.nextQueued();
            if (b >= 0) {
                begin(b, 0);
                return true;
            }
        } else {
            if (gbn.paused) {
                return false;
            }
            if (gbn.nextBsn < win.high) {
                begin(gbn.nextBsn, 0);
                return true;
            }
        }
        if (admitBlock()) {
            begin(win.high - 1, 0);
            return true;
        }
        return false;
    }

    /** Brings the next block of the posted messages into the window, if there is room. */
    private boolean admitBlock() {
        if (win.full() || loadMsn == msgs.tail) {
            return false;
        }
        int mi = msgs.index(loadMsn);
        long bsn = win.high++;
        int s = win.slot(bsn);
        long offset = (long) loadBlock * blockBytes;
        int len = (int) Math.min(blockBytes, msgs.length[mi] - offset);
        win.bsn[s] = bsn;
        win.msn[s] = loadMsn;
        win.block[s] = loadBlock;
        win.offset[s] = offset;
        win.length[s] = len;
        win.packets[s] = Math.max(1, Math.ceilDiv(len, mtu));
        win.firstPsn[s] = nextPsn;
        nextPsn += win.packets[s];
        win.retries[s] = 0;
        win.rnr[s] = 0;
        win.attempt[s] = 0;
        win.timer[s] = Simulator.NO_EVENT;
        win.state[s] = QUEUED;
        if (++loadBlock == msgs.blocks[mi]) {
            loadMsn++;
            loadBlock = 0;
        }
        return true;
    }

    /** Starts (re)transmitting block {@code bsn} from its packet {@code packet}. */
    void begin(long bsn, int packet) {
        int s = win.slot(bsn);
        win.cancelTimer(s);
        win.state[s] = SENDING;
        if (selective) {
            win.attempt[s]++;
        }
        curBsn = bsn;
        curPkt = packet;
    }

    private long sendPacket() {
        final long bsn = curBsn;
        final int s = win.slot(bsn);
        final int mi = msgs.index(win.msn[s]);
        Packet p = pool.acquire();
        p.kind = PacketKind.DATA;
        p.src = node;
        p.dst = peerNode;
        p.channel = peerChannel;
        p.opcode = msgs.opcode[mi];
        p.key = msgs.key[mi];
        p.address = msgs.address[mi];
        p.messageId = msgs.id[mi];
        p.msn = win.msn[s];
        p.messageLength = msgs.length[mi];
        p.block = win.block[s];
        p.blockCount = msgs.blocks[mi];
        p.bsn = bsn;
        long psn = win.firstPsn[s] + curPkt;
        p.psn = psn;
        p.packetInBlock = curPkt;
        p.blockPackets = win.packets[s];
        p.attempt = selective ? win.attempt[s] : gbn.epoch;
        int inBlock = curPkt * mtu;
        p.offset = win.offset[s] + inBlock;
        p.length = Math.min(mtu, win.length[s] - inBlock);
        boolean again = selective ? win.attempt[s] > 1 : gbn.sentBefore(psn);
        long end;
        if (!source.read(p)) {
            sourceFaults.increment();
            pool.release(p);
            if (source.stalls()) {
                // The same packet is read again on resume(); no time-out runs for its block until it has left.
                stalled = true;
                return sim.now();
            }
            end = sim.now();
        } else {
            Checksum.seal(p);
            dataPackets.increment();
            dataBytes.add(p.length);
            if (again) {
                retransmitted.increment();
            }
            long ready = source.readyAt();
            if (ready > sim.now()) {
                // The payload is not available yet (its IOMMU translation): the packet waits, and
                // its block's time-out counts from then, one serialization time early at most.
                held = p;
                end = ready;
            } else {
                end = net.send(p);
            }
        }
        if (!selective) {
            gbn.sent(psn);
        }
        if (++curPkt == win.packets[s]) {
            curBsn = -1;
            blockLeft(bsn, s, end);
        }
        return end;
    }

    /** The last packet of a block has left at {@code end}: arm its (or the window's) time-out. */
    private void blockLeft(long bsn, int s, long end) {
        long delay = end - sim.now() + cfg.retransmitTimeoutPs();
        if (selective) {
            sel.blockLeft(bsn, s, delay);
        } else {
            gbn.blockLeft(bsn, s, delay);
        }
    }

    // ---- packets from the receiver ----

    /** Handles an ACK, NACK or explicit retransmission request addressed to this connection. */
    void onControl(Packet p) {
        if (!Checksum.intact(p)) {
            corruptControl.increment();
            return;
        }
        if (failed) {
            return;
        }
        switch (p.kind) {
            case ACK -> onAck(p);
            case NACK -> onNack(p);
            case EXPLICIT_RETRANSMISSION_REQUEST -> onRetransmissionRequest(p);
            default -> throw new IllegalStateException(name() + " got a " + p.kind + " packet");
        }
        if (!failed) {
            slide();
            kick();
        }
    }

    private void onAck(Packet p) {
        acks.increment();
        if (selective) {
            sel.onAck(p);
        } else {
            gbn.ackPackets(p.cumulative);
        }
    }

    /** Block {@code b} has arrived whole. */
    void ackBlock(long b) {
        if (!win.contains(b)) {
            return;
        }
        int s = win.slot(b);
        if (win.state[s] == ACKED) {
            return;
        }
        win.cancelTimer(s);
        win.state[s] = ACKED;
        msgs.acked[msgs.index(win.msn[s])]++;
        if (curBsn == b) {
            curBsn = -1;
        }
    }

    private void onNack(Packet p) {
        NackReason reason = p.reason;
        nacks[reason.ordinal()].increment();
        if (failed) {
            return;
        }
        if (selective) {
            sel.onNack(p, reason);
        } else {
            gbn.onNack(p, reason);
        }
    }

    private void onRetransmissionRequest(Packet p) {
        errs.increment();
        lastErrPs = sim.now();
        long b = p.bsn;
        if (selective) {
            sel.onRetransmissionRequest(b);
        } else {
            gbn.onRetransmissionRequest(b);
        }
    }

    // ---- timers ----

    private void rnrResume(long arg) {
        if (selective) {
            sel.rnrResume(arg);
        } else {
            gbn.rnrResume(arg);
        }
    }

    private void faultWaitExpired(long arg) {
        if (selective) {
            sel.faultWaitExpired(arg);
        } else {
            gbn.faultWaitExpired();
        }
    }

    // ---- recovery ----

    private void slide() {
        while (win.base < win.high && win.state[win.slot(win.base)] == ACKED) {
            win.state[win.slot(win.base)] = FREE;
            win.base++;
        }
        if (!selective) {
            gbn.slid();
        }
        while (msgs.head < msgs.tail) {
            int i = msgs.index(msgs.head);
            if (msgs.acked[i] < msgs.blocks[i]) {
                break;
            }
            long id = msgs.id[i];
            msgs.head++;
            completed.increment();
            listener.onComplete(id, CompletionStatus.SUCCESS);
            if (failed) {
                return;
            }
        }
    }

    /** The connection fails: the message {@code msn} ends with {@code status}, every other outstanding one is flushed. */
    void fail(long msn, CompletionStatus status) {
        failed = true;
        stalled = false;
        if (status == CompletionStatus.RETRY_EXCEEDED || status == CompletionStatus.RNR_RETRY_EXCEEDED) {
            retryLimitFailures.increment();
        }
        win.cancelTimers();
        if (!selective) {
            gbn.cancelTimers();
        }
        curBsn = -1;
        if (selective) {
            sel.clear();
        }
        loadMsn = msgs.tail;
        while (msgs.head < msgs.tail) {
            long m = msgs.head++;
            failedMessages.increment();
            listener.onComplete(msgs.id[msgs.index(m)], m == msn ? status : CompletionStatus.FLUSHED);
        }
    }

    /** The oldest message in the window, or the oldest outstanding one. */
    long oldestMsn() {
        return win.base < win.high ? win.msn[win.slot(win.base)] : msgs.head;
    }

    /** Stops transmitting the current block (go-back-N restarts from another). */
    void abandonCurrent() {
        curBsn = -1;
    }

    /** Stops transmitting block {@code b} if it is the current one (it is to be sent again). */
    void abandon(long b) {
        if (curBsn == b) {
            curBsn = -1;
        }
    }

    @Override
    public String toString() {
        return name() + " base=" + win.base + " high=" + win.high + " msgs=" + msgs.head + ".." + msgs.tail
                + (failed ? " FAILED" : "") + " " + Arrays.toString(win.state);
    }
}
