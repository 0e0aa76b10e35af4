package org.pagefabric.hw.net;

/**
 * A packet: a recycled, mutable record owned by a {@link PacketPool} and named in events by its
 * {@link #index()}. Fields are public and plain because the packet is the hot path's struct;
 * whoever holds a packet owns it until it passes it on or releases it.
 *
 * <p>Header fields are written by the transport (sequence numbers, blocks) and by the upper
 * layer through the transport (opcode, address, message id). The payload travels either as
 * real bytes, copied into {@link #bytes} when the packet is built (the NIC's DMA read), or as a
 * 64-bit {@link #contentTag} that names what the bytes would be, for bulk traffic nobody reads.
 * {@link #checksum} covers the header and the payload; links inject corruption by flipping a
 * payload or checksum bit, never a header bit, which is the case of a payload CRC failure with
 * an intact header (so that a receiver can still name what to NACK).
 */
public final class Packet {
    private final int index;
    boolean inUse;

    /** What the packet is. */
    public PacketKind kind;
    /** For {@link PacketKind#NACK}: why. */
    public NackReason reason;
    /** Source node. */
    public int src;
    /** Destination node. */
    public int dst;
    /** Connection (queue pair) number at the destination node. */
    public int channel;
    /** Upper-layer operation (RDMA write, read request, read response, send...), opaque here. */
    public int opcode;
    /** Upper-layer target address of the message's first byte (e.g. a remote virtual address), opaque here. */
    public long address;
    /** Upper-layer memory key of the message (e.g. the rkey of an RDMA write), opaque here. */
    public int key;
    /** Message id chosen by the upper layer at post time. */
    public long messageId;
    /** Message sequence number: the message's position on its connection, from 0. */
    public long msn;
    /** Total length of the message in bytes. */
    public long messageLength;
    /** Index of this packet's block within its message. */
    public int block;
    /** Number of blocks in the message. */
    public int blockCount;
    /** Block sequence number: the block's position on its connection, from 0. */
    public long bsn;
    /** Packet sequence number: the packet's position on its connection, from 0; kept on retransmission. */
    public long psn;
    /** Index of this packet within its block. */
    public int packetInBlock;
    /** Number of packets in this packet's block. */
    public int blockPackets;
    /**
     * Transmission attempt: per block in selective mode, per go-back epoch in go-back-N mode.
     * Control packets echo the attempt of the DATA packet that caused them, so that a sender can
     * ignore NACKs about a transmission it has already superseded.
     */
    public int attempt;
    /** Byte offset of this packet's payload within its message. */
    public long offset;
    /** Payload bytes carried (0 for control packets). */
    public int length;
    /** Payload buffer of the pool's payload capacity; meaningful when {@link #hasBytes}. */
    public final byte[] bytes;
    /** Whether the payload is {@code bytes[0..length)}; otherwise it is {@link #contentTag}. */
    public boolean hasBytes;
    /** Names the payload's content for bulk traffic (e.g. buffer, offset and version mixed). */
    public long contentTag;
    /** Stream position of the payload's first byte within {@link #contentTag}'s byte stream. */
    public long tagPosition;
    /**
     * ACK: all blocks before this block sequence number (selective) or all packets before this
     * packet sequence number (go-back-N) have arrived.
     */
    public long cumulative;
    /** ACK: whether the block {@link #bsn} is complete (false for a progress ACK within a block). */
    public boolean blockComplete;
    /**
     * Checksum over header and payload as the sender sealed it, checked by the receiver; read it
     * through {@link Checksum#settle} (a packet sealed by {@link Checksum#seal} gets it computed
     * only when something is about to alter it).
     */
    public long checksum;
    /** Sealed, and {@link #checksum} not computed yet: nothing has altered the packet since. */
    boolean checksumDeferred;
    /** Bytes on the wire, set by the network: header plus payload. */
    public int wireBytes;

    Route route;
    int hop;
    /** The next packet of this packet's train, or null: the last of its train, or not in one. */
    Packet trainNext;
    /**
     * In a train, when this packet is offered to the link it is about to cross, and once that
     * link has taken it, when its last bit reaches the far end: the times the packet model
     * would give it, kept per packet so that one event per train per hop is enough.
     */
    long trainAt;
    /** On a train's head: its packets, and their wire bytes, so that a switch counts them without a walk. */
    int trainPackets;
    long trainWireBytes;
    /**
     * On a train's head: time every packet's {@link #trainAt} is still to be shifted by (the
     * switches' hop latencies since the last link), added by the next link as it walks the train.
     */
    long trainShift;
    /** On a train's head, at a link that serves offers in order: its next packet not yet serialized there. */
    Packet trainCursor;
    /** On a train's head, at such a link: the order the link took trains in, which breaks ties between equal offers. */
    long trainSeq;
    /**
     * On a train's head: its packets before the last (the body) have equal wire bytes and are
     * evenly spaced, packet {@code i} at {@link #trainBase} {@code + i *} {@link #trainPeriod}
     * and the last at {@link #trainTailAt} (all before {@link #trainShift}); their own
     * {@link #trainAt} are then stale. A link takes such a train in one step instead of a walk
     * when its packets provably meet no queue but the one ahead of the whole train
     * ({@link Link}).
     */
    boolean trainPeriodic;
    long trainBase;
    long trainPeriod;
    long trainTailAt;
    /** On a periodic train's head: the wire bytes of each body packet, and of the last packet. */
    int trainBodyWire;
    int trainTailWire;

    Packet(int index, int payloadCapacity) {
        this.index = index;
        this.bytes = new byte[payloadCapacity];
    }

    /** This packet's slot in its pool: what events carry. */
    public int index() {
        return index;
    }

    /** Resets every header field (not the payload buffer's bytes) for reuse. */
    void clear() {
        kind = null;
        reason = null;
        src = 0;
        dst = 0;
        channel = 0;
        opcode = 0;
        address = 0;
        key = 0;
        messageId = 0;
        msn = 0;
        messageLength = 0;
        block = 0;
        blockCount = 0;
        bsn = 0;
        psn = 0;
        packetInBlock = 0;
        blockPackets = 0;
        attempt = 0;
        offset = 0;
        length = 0;
        hasBytes = false;
        contentTag = 0;
        tagPosition = 0;
        cumulative = 0;
        blockComplete = false;
        checksum = 0;
        checksumDeferred = false;
        wireBytes = 0;
        route = null;
        hop = 0;
        trainNext = null;
        trainAt = 0;
        trainCursor = null;
        trainSeq = 0;
        trainPackets = 0;
        trainWireBytes = 0;
        trainShift = 0;
        trainPeriodic = false;
        trainBase = 0;
        trainPeriod = 0;
        trainTailAt = 0;
        trainBodyWire = 0;
        trainTailWire = 0;
    }

    /**
     * On a train's head: writes each packet's {@link #trainAt} from the periodic description, if
     * the train has one, and drops it; {@link #trainShift} stays pending.
     */
    void spellOutTrain() {
        if (!trainPeriodic) {
            return;
        }
        long t = trainBase;
        Packet q = this;
        for (; q.trainNext != null; q = q.trainNext) {
            q.trainAt = t;
            t += trainPeriod;
        }
        q.trainAt = trainTailAt;
        trainPeriodic = false;
    }

    /**
     * On a train's head whose packets' {@link #trainAt} are all written and unshifted: describes
     * it as periodic when its body is (equal wire bytes, equal gaps), so that the next link can
     * take it in one step.
     */
    void describeTrain() {
        trainPeriodic = false;
        if (trainNext == null || trainShift != 0) {
            return;
        }
        int bodyWire = wireBytes;
        long period = trainNext.trainNext == null ? 0 : trainNext.trainAt - trainAt;
        Packet prev = this;
        Packet q = trainNext;
        for (; q.trainNext != null; prev = q, q = q.trainNext) {
            if (q.wireBytes != bodyWire || q.trainAt - prev.trainAt != period) {
                return;
            }
        }
        trainPeriodic = true;
        trainBase = trainAt;
        trainPeriod = period;
        trainTailAt = q.trainAt;
        trainBodyWire = bodyWire;
        trainTailWire = q.wireBytes;
    }

    /** Whether this is the last packet of its block. */
    public boolean lastInBlock() {
        return packetInBlock == blockPackets - 1;
    }

    @Override
    public String toString() {
        return kind + (reason != null ? "(" + reason + ")" : "") + " " + src + "->" + dst + " ch" + channel
                + " msg" + messageId + " bsn" + bsn + " psn" + psn + " att" + attempt + " off" + offset + " len" + length;
    }
}
