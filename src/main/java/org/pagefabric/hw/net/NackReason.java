package org.pagefabric.hw.net;

/** Why a receiver refused a DATA packet. */
public enum NackReason {
    /** A packet is missing before this one: retransmit from the named sequence (go-back-N) or block. */
    SEQUENCE,
    /** The receiver cannot take the packet now (ODP responder fault, seed 001): back off and retry. */
    RECEIVER_NOT_READY,
    /**
     * The destination page faulted (PART, seed 000): cancel the time-out and wait for an
     * {@link PacketKind#EXPLICIT_RETRANSMISSION_REQUEST}.
     */
    PAGE_FAULT,
    /** The packet failed its checksum: retransmit without waiting for the time-out. */
    CORRUPT,
    /**
     * The receiver's memory protection refused the access (bad key, out of bounds, missing access
     * rights): nothing was written, and the sender fails the message and the connection.
     */
    REMOTE_ACCESS;

    private static final NackReason[] VALUES = values();

    /** The reason with that ordinal. */
    static NackReason of(int ordinal) {
        return VALUES[ordinal];
    }
}
