package org.pagefabric.endpoint;

import org.pagefabric.config.Parameter;

/**
 * Active messages: the host software cost of each message in the active-message layer that
 * carries handshakes and barriers ({@code comm.ActiveMessages}), and the baselines of seed 002
 * §5.2 (AM, AM-Exp, AM-Onload, AM-Ints): how often a process looks for incoming messages and how
 * often the NIC interrupts.
 */
public final class ActiveMessageParameters {
    /** Host software time of one active message at each of its ends. */
    public static final Parameter MESSAGE_OVERHEAD = Parameter.time("am.message_overhead",
            "Host software time of one active message at each end, on top of the NIC and the network: at the"
                    + " sender, building it and handing it to the messaging library; at the receiver, taking it from"
                    + " the library and dispatching its handler or waking its requester (GASNet over GM or verbs).");
    /** Interval between two polls of the receive buffer by a computing process (AM). */
    public static final Parameter POLL_INTERVAL = Parameter.time("am.poll_interval",
            "Interval after which a computing process polls its receive buffer for active messages (AM), and"
                    + " the shortest interval of exponential back-off (AM-Exp).").positive();
    /** Longest interval exponential back-off reaches (AM-Exp). */
    public static final Parameter BACKOFF_MAX_INTERVAL = Parameter.time("am.backoff.max_interval",
            "Longest polling interval of AM-Exp: an empty poll doubles the interval up to this bound.").positive();
    /** Messages per interrupt in interrupt-driven active messages (AM-Ints). */
    public static final Parameter INTERRUPT_BATCH = Parameter.count("am.interrupt.batch",
            "Active messages received per interrupt the NIC raises when handlers are interrupt-driven"
                    + " (AM-Ints).").positive();

    /** CPU time of the active-message runtime per message received, beyond reading the message. */
    public static final Parameter RECEIVE_OVERHEAD = Parameter.time("am.receive_overhead",
            "CPU time the active-message runtime spends on each message it receives, beyond reading it from"
                    + " memory: finding it in the receive buffer, parsing its header, dispatching its handler,"
                    + " copying the payload out and releasing the buffer slot (002 §5.2.1: the computing"
                    + " processes 'extract the payload'; Active Access leaves this to the IOMMU).");

    private ActiveMessageParameters() {
    }
}
