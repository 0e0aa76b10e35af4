package org.pagefabric.hw.net;

/** What a packet is, as far as the network and the reliable transport care. */
public enum PacketKind {
    /** Payload of a message; the upper layer's {@link Packet#opcode} says which operation. */
    DATA,
    /** Positive acknowledgement of a block, or of packets up to a sequence number. */
    ACK,
    /** Negative acknowledgement with a {@link NackReason}. */
    NACK,
    /**
     * Explicit Retransmission Request (PART, seed 000 §III): sent by receiver software once it
     * has resolved a page fault, asking the sender to retransmit one block.
     */
    EXPLICIT_RETRANSMISSION_REQUEST,
    /**
     * An unreliable datagram (UD): one packet that is the whole message, never acknowledged or
     * retransmitted; {@link TransportEndpoint} hands it to the datagram sink of its channel.
     */
    DATAGRAM
}
