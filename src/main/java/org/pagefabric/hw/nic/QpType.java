package org.pagefabric.hw.nic;

/** Queue-pair transport service. */
public enum QpType {
    /** Reliable connected: acknowledged, retransmitted, in order; responder faults answer RNR. */
    RC,
    /**
     * Unreliable datagram: sends of at most one MTU, addressed per work request
     * ({@link AddressHandle}), never acknowledged or retransmitted; a datagram that finds no
     * receive, or a non-present page, is dropped (001: "UD responder drops packets while page
     * faults are resolved").
     */
    UD
}
