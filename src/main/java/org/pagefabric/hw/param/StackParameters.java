package org.pagefabric.hw.param;

import org.pagefabric.config.Parameter;

/** The host TCP/IP stack over an Ethernet NIC (package {@code hw.stack}; seed 002 §5.1's netperf). */
public final class StackParameters {
    /** CPU time to build and hand one frame to the NIC driver (TCP/UDP and IP output, driver xmit). */
    public static final Parameter TX_PER_PACKET = Parameter.time("stack.tx.per_packet",
            "CPU time to send one frame: TCP or UDP output, IP output, the driver's transmit routine and descriptor"
            + " write (the data copy excluded).");
    /** CPU time to receive one frame in the NAPI poll (driver, IP and TCP/UDP input). */
    public static final Parameter RX_PER_PACKET = Parameter.time("stack.rx.per_packet",
            "CPU time to receive one frame in the NAPI poll: descriptor clean-up, buffer refill, IP and TCP or UDP"
            + " input (the copy to the user excluded).");
    /** Rate of the copies between user buffers and socket buffers. */
    public static final Parameter COPY_BANDWIDTH = Parameter.bandwidth("stack.copy_bandwidth",
            "Rate of copy_from_user on send and copy_to_user on receive between a user buffer and socket buffers.");
    /** Minimum interval between two receive interrupts of the NIC (interrupt throttling). */
    public static final Parameter INTERRUPT_THROTTLE = Parameter.time("stack.interrupt.throttle",
            "Minimum interval between two NIC interrupts (e1000 InterruptThrottleRate); completions arriving sooner"
            + " wait for the next interrupt or for the running NAPI poll.");
    /** Frames one NAPI poll handles before it yields the core (softirq rescheduled). */
    public static final Parameter NAPI_BUDGET = Parameter.count("stack.napi.budget",
            "Completions one NAPI poll run handles before it reschedules itself instead of re-enabling interrupts.");
    /** Receive descriptors of the NIC's ring. */
    public static final Parameter RX_RING = Parameter.count("stack.ring.rx_entries",
            "Receive descriptors of the NIC's ring, each with a posted, statically DMA-mapped 2 KiB buffer; a frame"
            + " arriving with no posted buffer is dropped by the NIC.");
    /** Transmit buffers (sk_buff data areas) the stack may hold at once. */
    public static final Parameter TX_BUFFERS = Parameter.count("stack.ring.tx_buffers",
            "Transmit buffers of 2 KiB, statically DMA-mapped, shared by the node's sockets; a TCP segment holds one"
            + " until acknowledged, a UDP fragment until the NIC has sent it.");
    /** A socket's send buffer. */
    public static final Parameter SEND_BUFFER = Parameter.size("stack.socket.send_buffer",
            "Bytes of unacknowledged or unsent data a socket holds (SO_SNDBUF); a send blocks when it is full.");
    /** A socket's receive buffer, charged by buffer size (truesize). */
    public static final Parameter RECV_BUFFER = Parameter.size("stack.socket.recv_buffer",
            "Receive buffer of a socket (SO_RCVBUF), charged 2 KiB per queued frame buffer (truesize): UDP drops a"
            + " datagram that does not fit; TCP advertises the free part as its window.");
    /** Segments TCP may send before the first acknowledgement. */
    public static final Parameter TCP_INITIAL_WINDOW = Parameter.count("stack.tcp.initial_window",
            "Initial congestion window in segments (Linux's initial window).");
    /** Longest time a receiver holds an acknowledgement back. */
    public static final Parameter TCP_DELAYED_ACK = Parameter.time("stack.tcp.delayed_ack",
            "Delayed acknowledgement timer: a receiver acknowledges every second segment at once, a single one after"
            + " this time.");
    /** Retransmission time-out before any back-off. */
    public static final Parameter TCP_RTO = Parameter.time("stack.tcp.rto",
            "Retransmission time-out (doubled after each consecutive time-out, reset by new acknowledgements).");

    private StackParameters() {
    }
}
