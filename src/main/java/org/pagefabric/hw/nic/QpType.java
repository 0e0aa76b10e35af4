package org.pagefabric.hw.nic;

/** Queue-pair transport service. */
public enum QpType {
    /** Reliable connected: acknowledged, retransmitted, in order; responder faults answer RNR. */
    RC
}
