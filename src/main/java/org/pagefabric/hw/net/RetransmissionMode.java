package org.pagefabric.hw.net;

/** What a sender retransmits when a packet is missing. */
public enum RetransmissionMode {
    /**
     * Only the block that failed (PART, seed 000): each block has its own time-out and is
     * acknowledged on its own; blocks may complete out of order.
     */
    SELECTIVE,
    /**
     * Everything from the first missing packet on (InfiniBand RC, seed 001): the receiver takes
     * packets in order only, acknowledges cumulatively and NACKs the first gap once.
     */
    GO_BACK_N
}
