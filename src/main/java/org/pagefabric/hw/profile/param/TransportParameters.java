package org.pagefabric.hw.profile.param;

import org.pagefabric.hw.profile.Parameter;

/** The reliable transport: segmentation, acknowledgement and retransmission. */
public final class TransportParameters {
    /** Payload bytes of one packet. */
    public static final Parameter MTU = Parameter.size("transport.mtu",
            "Payload bytes of one packet.").positive();
    /** Unit of acknowledgement and retransmission. */
    public static final Parameter BLOCK_SIZE = Parameter.size("transport.block_size",
            "Bytes acknowledged and retransmitted as one unit (a block of packets).").positive();
    /** Transport header bytes per packet. */
    public static final Parameter HEADER = Parameter.size("transport.header",
            "Transport header bytes carried by every packet.");
    /** Whether only the failed block is retransmitted. */
    public static final Parameter SELECTIVE_RETRANSMISSION = Parameter.flag("transport.selective_retransmission",
            "Retransmit only the failed block (true) or everything from it onwards (go-back-N, false).");
    /** Retransmission timeout. */
    public static final Parameter TIMEOUT = Parameter.time("transport.timeout",
            "Time without acknowledgement after which the sender retransmits.").positive();
    /** Delay a requester waits after a receiver-not-ready NAK. */
    public static final Parameter RNR_DELAY = Parameter.time("transport.rnr_delay",
            "Time a requester waits after a receiver-not-ready NAK before retrying (IB min_rnr_timer).");

    private TransportParameters() {
    }
}
