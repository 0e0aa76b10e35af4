package org.pagefabric.hw.net;

/** What a {@link PacketSink} did with a DATA packet. */
public enum SinkVerdict {
    /** Placed (written to memory, queued, consumed). */
    ACCEPT,
    /** The target page faulted: NACK PAGE_FAULT; receiver software will request retransmission (PART). */
    PAGE_FAULT,
    /** Not ready (e.g. ODP responder fault): NACK RECEIVER_NOT_READY; the sender backs off and retries. */
    RECEIVER_NOT_READY,
    /**
     * Dropped silently (Open-MX: page not pinned yet; ODP UD): recovered by time-out or a gap NACK
     * (go-back-N: the next packet; selective with transport.nack_on_gap: a later block completing).
     */
    DROP,
    /** Memory protection refused it (key, bounds, rights): NACK REMOTE_ACCESS; nothing was written. */
    ACCESS_ERROR
}
