package org.pagefabric.hw.net;

import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.stat.Counter;

/**
 * The receiving half of a reliable connection: checks each DATA packet's checksum, recognises
 * duplicates, offers new packets to its {@link PacketSink}, acknowledges blocks (and, if so
 * configured, every n packets), NACKs with a reason, and tells its {@link DeliveryListener}
 * when a message is complete, in message order and exactly once.
 *
 * <p>Everything happens as packets arrive, and control packets leave at once, except where the
 * sink says a packet's data reaches memory later ({@link PacketSink#placedAt}, an IOMMU
 * translation under way): from then on, ACKs and deliveries are held in arrival order until the
 * data they vouch for is in memory, so no ACK precedes the placement it acknowledges and no
 * message is delivered before its last byte lands. Selective NACKs (faults, RNR, gaps) still
 * leave at once; a go-back-N NACK, which acknowledges what precedes it, waits like an ACK. Receiver software (the page-fault handler of PART) asks for a block again with
 * {@link #requestRetransmission}.
 */
public final class ReliableReceiver implements EventHandler {
    /** The oldest held ACKs and deliveries are due. */
    private static final int RELEASE = 1;

    private final String name;
    private final Network net;
    private final PacketPool pool;
    private final TransportConfig cfg;
    private final int node;
    private final int peerNode;
    private final int peerChannel;
    private final PacketSink sink;
    private final DeliveryListener listener;
    private final boolean selective;
    private final int window;

    // Messages in progress, a ring indexed by msn & mMask; mMsn = -1 marks a free entry.
    private final long[] mMsn;
    private final long[] mId;
    private final long[] mLen;
    private final long[] mAddr;
    private final long[] mFirstBsn;
    private final int[] mOpcode;
    private final int[] mBlocks;
    private final int[] mDone;
    private final int mMask;
    private long deliverMsn;

    // Selective: block slots indexed by bsn % window.
    private final long[] sBsn;
    private final long[][] sBits;
    private final int[] sCount;
    private final int[] sPackets;
    private final int[] sFaultAttempt;
    private final int[] sRnrAttempt;
    /** The attempt a gap re-request asked for again (its retransmission comes as the next one). */
    private final int[] sGapAttempt;
    /** The latest attempt of the block seen. */
    private final int[] sAttempt;
    /** The message the block belongs to. */
    private final long[] sMsn;
    private final boolean[] sComplete;
    /** Every block before it is complete. */
    private long base;

    // Go-back-N.
    private long expectedPsn;
    private boolean nakOutstanding;
    private int nakAttempt;

    private int acceptedSinceAck;

    /** Until when accepted data is still on its way to memory: ACKs and deliveries wait for it. */
    private long holdUntil;
    // Held control packets (hAck set: ACKs, go-back-N NACKs) and deliveries (hAck null), oldest first, a ring of hTime.length entries.
    private long[] hTime = new long[8];
    private Packet[] hAck = new Packet[8];
    private long[] hId = new long[8];
    private long[] hLen = new long[8];
    private long[] hAddr = new long[8];
    private int[] hOpcode = new int[8];
    private int hHead;
    private int hSize;

    private final Counter packets;
    private final Counter accepted;
    private final Counter duplicates;
    private final Counter corrupt;
    private final Counter outOfOrder;
    private final Counter sinkDrops;
    private final Counter refused;
    private final Counter acksSent;
    private final Counter[] nacksSent = new Counter[NackReason.values().length];
    private final Counter errsSent;
    private final Counter delivered;

    ReliableReceiver(String name, Network net, TransportConfig cfg, int node, int peerNode, int peerChannel,
                     PacketSink sink, DeliveryListener listener) {
        this.name = name;
        this.net = net;
        this.pool = net.pool();
        this.cfg = cfg;
        this.node = node;
        this.peerNode = peerNode;
        this.peerChannel = peerChannel;
        this.sink = sink;
        this.listener = listener;
        this.selective = cfg.mode() == RetransmissionMode.SELECTIVE;
        this.window = cfg.windowBlocks();
        // Messages in progress span at most window blocks, each message at least one.
        int ring = Integer.highestOneBit(Math.max(1, window - 1)) << 1;
        mMsn = new long[ring];
        java.util.Arrays.fill(mMsn, -1);
        mId = new long[ring];
        mLen = new long[ring];
        mAddr = new long[ring];
        mFirstBsn = new long[ring];
        mOpcode = new int[ring];
        mBlocks = new int[ring];
        mDone = new int[ring];
        mMask = ring - 1;
        int slots = selective ? window : 0;
        sBsn = new long[slots];
        java.util.Arrays.fill(sBsn, -1);
        sBits = new long[slots][(cfg.packetsPerBlock() + 63) >>> 6];
        sCount = new int[slots];
        sPackets = new int[slots];
        sFaultAttempt = new int[slots];
        sRnrAttempt = new int[slots];
        sGapAttempt = new int[slots];
        sAttempt = new int[slots];
        sMsn = new long[slots];
        sComplete = new boolean[slots];
        var stats = net.simulator().statistics();
        packets = stats.counter(name + ".packets", "packets", "DATA packets arrived");
        accepted = stats.counter(name + ".accepted", "packets", "DATA packets placed by the sink");
        duplicates = stats.counter(name + ".duplicates", "packets", "DATA packets that had already been placed");
        corrupt = stats.counter(name + ".corrupt", "packets", "DATA packets that failed their checksum");
        outOfOrder = stats.counter(name + ".outOfOrder", "packets", "go-back-N: packets after a gap, dropped");
        sinkDrops = stats.counter(name + ".sinkDrops", "packets", "DATA packets the sink dropped silently");
        refused = stats.counter(name + ".refused", "packets", "DATA packets the sink refused with a fault or RNR");
        acksSent = stats.counter(name + ".acks", "packets", "ACKs sent");
        for (NackReason r : NackReason.values()) {
            nacksSent[r.ordinal()] = stats.counter(name + ".nacks." + r.name().toLowerCase(java.util.Locale.ROOT),
                    "packets", "NACKs sent with reason " + r);
        }
        errsSent = stats.counter(name + ".retransmissionRequests", "packets", "explicit retransmission requests sent");
        delivered = stats.counter(name + ".delivered", "messages", "messages delivered");
    }

    /** The hierarchical name statistics are filed under. */
    public String name() {
        return name;
    }

    /** Messages delivered so far. */
    public long deliveredMessages() {
        return deliverMsn;
    }

    /**
     * Receiver software asks the sender to retransmit block {@code block} of message
     * {@code messageId} (PART's Explicit Retransmission Request, sent once the faulting page is
     * in). The request is a packet and may itself be lost.
     *
     * @return false if no message in progress has that id and block
     */
    public boolean requestRetransmission(long messageId, int block) {
        for (int i = 0; i <= mMask; i++) {
            if (mMsn[i] >= 0 && mId[i] == messageId && block >= 0 && block < mBlocks[i]) {
                Packet p = control(PacketKind.EXPLICIT_RETRANSMISSION_REQUEST);
                p.messageId = messageId;
                p.block = block;
                p.bsn = mFirstBsn[i] + block;
                send(p);
                errsSent.increment();
                return true;
            }
        }
        return false;
    }

    /** Handles one DATA packet addressed to this connection; the caller releases it afterwards. */
    void onData(Packet p) {
        packets.increment();
        if (!Checksum.intact(p)) {
            corrupt.increment();
            if (cfg.nackCorrupt()) {
                nackCorrupt(p);
            }
            return;
        }
        if (selective) {
            selectiveData(p);
        } else {
            goBackNData(p);
        }
    }

    private void nackCorrupt(Packet p) {
        if (selective) {
            if (p.bsn >= base && p.bsn < base + window) {
                nack(NackReason.CORRUPT, p.bsn, p.psn, p.attempt);
            }
        } else if (p.psn == expectedPsn && (!nakOutstanding || p.attempt > nakAttempt)) {
            nakOutstanding = true;
            nakAttempt = p.attempt;
            nack(NackReason.CORRUPT, p.bsn, expectedPsn, p.attempt);
        }
    }

    private void selectiveData(Packet p) {
        long bsn = p.bsn;
        if (bsn < base) {
            duplicate(p, bsn);
            return;
        }
        if (bsn >= base + window) {
            // The sender's window never reaches here; a packet that does is not ours to take.
            outOfOrder.increment();
            return;
        }
        int s = (int) (bsn % window);
        if (sBsn[s] != bsn) {
            sBsn[s] = bsn;
            java.util.Arrays.fill(sBits[s], 0);
            sCount[s] = 0;
            sPackets[s] = p.blockPackets;
            sFaultAttempt[s] = 0;
            sRnrAttempt[s] = 0;
            sGapAttempt[s] = 0;
            sAttempt[s] = 0;
            sMsn[s] = p.msn;
            sComplete[s] = false;
        }
        if (p.attempt > sAttempt[s]) {
            sAttempt[s] = p.attempt;
        }
        int k = p.packetInBlock;
        long bit = 1L << (k & 63);
        if (sComplete[s]) {
            duplicate(p, bsn);
            return;
        }
        if ((sBits[s][k >>> 6] & bit) != 0) {
            // Placed already, but its block is still incomplete: nothing to acknowledge yet.
            duplicates.increment();
            return;
        }
        if (!noteMessage(p)) {
            return;
        }
        SinkVerdict v = sink.accept(p);
        switch (v) {
            case ACCEPT -> {
                accepted.increment();
                notePlacement();
                sBits[s][k >>> 6] |= bit;
                if (++sCount[s] == sPackets[s]) {
                    sComplete[s] = true;
                    acceptedSinceAck = 0;
                    while (sBsn[(int) (base % window)] == base && sComplete[(int) (base % window)]) {
                        base++;
                    }
                    ack(bsn, p.attempt, true, base);
                    if (cfg.nackOnGap()) {
                        askAgainBefore(bsn, p.msn);
                    }
                    blockDone(p.msn);
                    return;
                }
                progressAck(p, base);
            }
            case PAGE_FAULT -> {
                refused.increment();
                if (p.attempt > sFaultAttempt[s]) {
                    sFaultAttempt[s] = p.attempt;
                    nack(NackReason.PAGE_FAULT, bsn, p.psn, p.attempt);
                }
            }
            case RECEIVER_NOT_READY -> {
                refused.increment();
                if (p.attempt > sRnrAttempt[s]) {
                    sRnrAttempt[s] = p.attempt;
                    nack(NackReason.RECEIVER_NOT_READY, bsn, p.psn, p.attempt);
                }
            }
            case DROP -> sinkDrops.increment();
            case ACCESS_ERROR -> {
                refused.increment();
                nack(NackReason.REMOTE_ACCESS, bsn, p.psn, p.attempt);
            }
        }
    }

    /**
     * Open-MX's optimistic re-request (omx_pull.c, 003 §4.3 footnote 4): block {@code bsn} of
     * message {@code msn} is complete while earlier blocks of the same message are not, so a
     * packet of theirs was probably lost: ask for each of them again, once. A block asked for
     * again this way is not asked for again until a retransmission it did not ask for (the
     * sender's time-out) has come; a block whose missing packets are followed by no complete
     * later block (the message's last one, or every outstanding one with a loss) waits for the
     * time-out.
     */
    private void askAgainBefore(long bsn, long msn) {
        long from = Math.max(base, bsn - window + 1);
        for (long b = from; b < bsn; b++) {
            int t = (int) (b % window);
            if (sBsn[t] != b || sComplete[t] || sMsn[t] != msn) {
                continue;
            }
            // The retransmission a re-request caused comes as attempt sGapAttempt + 1.
            if (sGapAttempt[t] > 0 && sAttempt[t] <= sGapAttempt[t] + 1) {
                continue;
            }
            if (sAttempt[t] > sFaultAttempt[t] && sAttempt[t] > sRnrAttempt[t]) {
                sGapAttempt[t] = sAttempt[t];
                nack(NackReason.SEQUENCE, b, 0, sAttempt[t]);
            }
        }
    }

    private void goBackNData(Packet p) {
        long psn = p.psn;
        if (psn < expectedPsn) {
            duplicate(p, p.bsn);
            return;
        }
        if (psn > expectedPsn) {
            outOfOrder.increment();
            // One NACK per gap and epoch: the sender goes back once, not once per packet.
            if (!nakOutstanding || p.attempt > nakAttempt) {
                nakOutstanding = true;
                nakAttempt = p.attempt;
                nack(NackReason.SEQUENCE, p.bsn, expectedPsn, p.attempt);
            }
            return;
        }
        if (!noteMessage(p)) {
            return;
        }
        SinkVerdict v = sink.accept(p);
        switch (v) {
            case ACCEPT -> {
                accepted.increment();
                notePlacement();
                expectedPsn++;
                nakOutstanding = false;
                if (p.lastInBlock()) {
                    acceptedSinceAck = 0;
                    ack(p.bsn, p.attempt, true, expectedPsn);
                    blockDone(p.msn);
                } else {
                    progressAck(p, expectedPsn);
                }
            }
            case PAGE_FAULT, RECEIVER_NOT_READY -> {
                refused.increment();
                if (!nakOutstanding || p.attempt > nakAttempt) {
                    nakOutstanding = true;
                    nakAttempt = p.attempt;
                    nack(v == SinkVerdict.PAGE_FAULT ? NackReason.PAGE_FAULT : NackReason.RECEIVER_NOT_READY,
                            p.bsn, expectedPsn, p.attempt);
                }
            }
            // Silent: the next packet finds the gap and NACKs it.
            case DROP -> sinkDrops.increment();
            case ACCESS_ERROR -> {
                refused.increment();
                nack(NackReason.REMOTE_ACCESS, p.bsn, expectedPsn, p.attempt);
            }
        }
    }

    private void progressAck(Packet p, long cumulative) {
        if (cfg.ackEveryPackets() > 0 && ++acceptedSinceAck >= cfg.ackEveryPackets()) {
            acceptedSinceAck = 0;
            ack(p.bsn, p.attempt, false, cumulative);
        }
    }

    /** A packet of a complete block: re-acknowledge at the end of the block, in case the ACK was lost. */
    private void duplicate(Packet p, long bsn) {
        duplicates.increment();
        if (p.lastInBlock()) {
            ack(bsn, p.attempt, true, selective ? base : expectedPsn);
        }
    }

    /** Records the message a packet belongs to; false if it lies beyond what can be in progress. */
    private boolean noteMessage(Packet p) {
        long msn = p.msn;
        if (msn - deliverMsn > mMask) {
            outOfOrder.increment();
            return false;
        }
        int i = (int) (msn & mMask);
        if (mMsn[i] != msn) {
            mMsn[i] = msn;
            mId[i] = p.messageId;
            mLen[i] = p.messageLength;
            mAddr[i] = p.address;
            mOpcode[i] = p.opcode;
            mBlocks[i] = p.blockCount;
            mFirstBsn[i] = p.bsn - p.block;
            mDone[i] = 0;
        }
        return true;
    }

    private void blockDone(long msn) {
        mDone[(int) (msn & mMask)]++;
        while (true) {
            int i = (int) (deliverMsn & mMask);
            if (mMsn[i] != deliverMsn || mDone[i] < mBlocks[i]) {
                return;
            }
            mMsn[i] = -1;
            deliverMsn++;
            if (holding()) {
                int h = hold(null);
                hId[h] = mId[i];
                hLen[h] = mLen[i];
                hOpcode[h] = mOpcode[i];
                hAddr[h] = mAddr[i];
            } else {
                delivered.increment();
                listener.onDelivered(mId[i], mLen[i], mOpcode[i], mAddr[i]);
            }
        }
    }

    /** The sink accepted a packet: if its data reaches memory later, what vouches for it waits. */
    private void notePlacement() {
        long at = sink.placedAt();
        if (at > holdUntil) {
            holdUntil = at;
        }
    }

    /** Whether an ACK or delivery made now must wait (for data on its way, or for older held ones). */
    private boolean holding() {
        return hSize > 0 || holdUntil > net.simulator().now();
    }

    /** Appends a held entry due at the later of now and {@link #holdUntil}; returns its index. */
    private int hold(Packet ack) {
        if (hSize == hTime.length) {
            growHeld();
        }
        long now = net.simulator().now();
        long due = Math.max(now, holdUntil);
        int h = (hHead + hSize++) % hTime.length;
        hTime[h] = due;
        hAck[h] = ack;
        net.simulator().schedule(due - now, this, RELEASE, 0);
        return h;
    }

    private void growHeld() {
        int n = hTime.length;
        long[] time = new long[n * 2];
        Packet[] ack = new Packet[n * 2];
        long[] id = new long[n * 2];
        long[] len = new long[n * 2];
        long[] addr = new long[n * 2];
        int[] op = new int[n * 2];
        for (int k = 0; k < hSize; k++) {
            int o = (hHead + k) % n;
            time[k] = hTime[o];
            ack[k] = hAck[o];
            id[k] = hId[o];
            len[k] = hLen[o];
            addr[k] = hAddr[o];
            op[k] = hOpcode[o];
        }
        hTime = time;
        hAck = ack;
        hId = id;
        hLen = len;
        hAddr = addr;
        hOpcode = op;
        hHead = 0;
    }

    @Override
    public void handle(int type, long arg) {
        if (type != RELEASE) {
            throw new IllegalStateException(name + ": unknown receiver event " + type);
        }
        long now = net.simulator().now();
        // Due times never decrease, so the due entries are at the head.
        while (hSize > 0 && hTime[hHead] <= now) {
            int h = hHead;
            hHead = (hHead + 1) % hTime.length;
            hSize--;
            Packet ack = hAck[h];
            if (ack != null) {
                hAck[h] = null;
                send(ack);
            } else {
                delivered.increment();
                listener.onDelivered(hId[h], hLen[h], hOpcode[h], hAddr[h]);
            }
        }
    }

    private void ack(long bsn, int attempt, boolean complete, long cumulative) {
        Packet p = control(PacketKind.ACK);
        p.bsn = bsn;
        p.attempt = attempt;
        p.blockComplete = complete;
        p.cumulative = cumulative;
        acksSent.increment();
        if (holding()) {
            hold(p);
        } else {
            send(p);
        }
    }

    private void nack(NackReason reason, long bsn, long psn, int attempt) {
        Packet p = control(PacketKind.NACK);
        p.reason = reason;
        p.bsn = bsn;
        p.psn = psn;
        p.attempt = attempt;
        nacksSent[reason.ordinal()].increment();
        // A go-back-N NACK acknowledges every packet before psn: it waits for their data like an ACK.
        if (!selective && holding()) {
            hold(p);
        } else {
            send(p);
        }
    }

    private Packet control(PacketKind kind) {
        Packet p = pool.acquire();
        p.kind = kind;
        p.src = node;
        p.dst = peerNode;
        p.channel = peerChannel;
        return p;
    }

    private void send(Packet p) {
        Checksum.seal(p);
        net.send(p);
    }

    /** The simulator (for callers that schedule receiver software). */
    public Simulator simulator() {
        return net.simulator();
    }

    @Override
    public String toString() {
        return name + (selective ? " base=" + base : " expected=" + expectedPsn) + " delivered=" + deliverMsn;
    }
}
