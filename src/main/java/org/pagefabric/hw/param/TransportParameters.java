package org.pagefabric.hw.param;

import org.pagefabric.config.Parameter;

/** The reliable transport: segmentation, acknowledgement and retransmission. */
public final class TransportParameters {
    /** Payload bytes of one packet. */
    public static final Parameter MTU = Parameter.size("transport.mtu",
            "Payload bytes of one packet.").positive().between("64 B", "64 KiB");
    /** Unit of acknowledgement and retransmission. */
    public static final Parameter BLOCK_SIZE = Parameter.size("transport.block_size",
            "Bytes acknowledged and retransmitted as one unit (a block of packets).").positive()
            .between("64 B", "1 GiB");
    /** Transport header bytes per packet. */
    public static final Parameter HEADER = Parameter.size("transport.header",
            "Transport header bytes carried by every packet.").between("0 B", "4 KiB");
    /** Whether only the failed block is retransmitted. */
    public static final Parameter SELECTIVE_RETRANSMISSION = Parameter.flag("transport.selective_retransmission",
            "Retransmit only the failed block (true) or everything from it onwards (go-back-N, false).");
    /** Retransmission timeout. */
    public static final Parameter TIMEOUT = Parameter.time("transport.timeout",
            "Time without acknowledgement after which the sender retransmits.").positive();
    /** Delay a requester waits after a receiver-not-ready NAK. */
    public static final Parameter RNR_DELAY = Parameter.time("transport.rnr_delay",
            "Time a requester waits after a receiver-not-ready NAK before retrying (IB min_rnr_timer).");

    /** Blocks a sender may have unacknowledged. */
    public static final Parameter WINDOW = Parameter.count("transport.window",
            "Blocks a sender may have unacknowledged at once.").positive();
    /** Progress acknowledgements. */
    public static final Parameter ACK_EVERY = Parameter.count("transport.ack_every",
            "0: acknowledge at the end of each block only; n > 0: also after every n accepted packets.");
    /** Retransmissions before a connection fails. */
    public static final Parameter RETRY_LIMIT = Parameter.count("transport.retry_limit",
            "Retransmissions (time-outs, sequence or corruption NACKs) of one block or without progress before the connection fails.");
    /** RNR retries before a connection fails. */
    public static final Parameter RNR_RETRY_LIMIT = Parameter.count("transport.rnr_retry_limit",
            "Receiver-not-ready retries of one block or without progress before the connection fails.");
    /** Explicitly requested retransmissions before a connection fails. */
    public static final Parameter ERR_RETRY_LIMIT = Parameter.count("transport.err_retry_limit",
            "Retransmissions the receiver asked for with an explicit retransmission request (PART, after paging a"
                    + " faulting page in) of one block or without progress before the connection fails; 0 to 6, or 7 for"
                    + " no limit, as verbs' rnr_retry. Time-outs count against transport.retry_limit instead.")
            .between("0", "7");
    /** Whether a corrupted packet is NACKed. */
    public static final Parameter NACK_CORRUPT = Parameter.flag("transport.nack_corrupt",
            "Whether a receiver NACKs a packet failing its checksum (true) or drops it and leaves recovery to the time-out.");
    /** Whether a gap in a block is NACKed early in selective mode. */
    public static final Parameter NACK_ON_GAP = Parameter.flag("transport.nack_on_gap",
            "Selective mode: whether a receiver asks again for the earlier blocks of a message still missing packets when a later"
                    + " block of it completes, once until a time-out has sent them again (Open-MX's optimistic re-request).");
    /** How long a sender waits after a page-fault NACK. */
    public static final Parameter FAULT_WAIT_TIMEOUT = Parameter.time("transport.fault_wait_timeout",
            "After a page-fault NACK, time before the sender retransmits anyway, should the explicit retransmission request"
                    + " have been lost; 0 waits for the request forever.");

    /** Time the sender's block issuer takes to issue a block again for retransmission. */
    public static final Parameter REISSUE = Parameter.time("transport.reissue",
            "Selective mode: time the sender's block issuer (a co-processor) takes to issue a block again once it is"
            + " to be retransmitted, one block at a time; 0 retransmits at once.");

    private TransportParameters() {
    }
}
