package org.pagefabric.reg.openmx;

import org.pagefabric.config.Parameter;

/** Open-MX over Ethernet (seed 003). */
public final class OpenMxParameters {
    /** Largest message sent eagerly. */
    public static final Parameter EAGER_MAX = Parameter.size("openmx.eager_max",
            "Largest message sent eagerly through a pinned intermediate buffer; larger ones use rendezvous.");
    /** Host time to send one packet through the kernel Ethernet stack. */
    public static final Parameter SEND_PER_PACKET = Parameter.time("openmx.send.per_packet",
            "Host time for the driver to build and hand one packet to the Ethernet driver.");
    /** Host time to receive one packet in the bottom half, copy excluded. */
    public static final Parameter RECV_PER_PACKET = Parameter.time("openmx.recv.per_packet",
            "Host time to receive one packet in the bottom half, the data copy excluded.");
    /** Interrupt coalescing delay of the NIC's receive interrupt. */
    public static final Parameter RECV_COALESCING = Parameter.time("openmx.recv.coalescing",
            "Time the NIC waits, after a frame reaches a core whose Open-MX receive path is idle, before raising its"
            + " interrupt (receive interrupt coalescing, ethtool rx-usecs); frames arriving meanwhile, or while the"
            + " bottom half still has work, share that interrupt.");
    /** Bytes per second of the receive-side copy. */
    public static final Parameter RECV_COPY_BANDWIDTH = Parameter.bandwidth("openmx.recv.copy_bandwidth",
            "Rate of the receive-side copy from the socket buffer into the pinned region.");
    /** Region descriptors the user-space region cache keeps. */
    public static final Parameter REGION_CACHE_ENTRIES = Parameter.count("openmx.region_cache.entries",
            "User regions the user-space cache keeps declared before evicting the least recently used.");
    /** Slots of each statically pinned eager ring (one ring per peer and direction). */
    public static final Parameter EAGER_SLOTS = Parameter.count("openmx.eager.slots",
            "Eager messages in flight from one rank to one peer: slots of openmx.eager_max bytes in the statically"
            + " pinned send ring and in the peer's matching receive ring; a sender waits for a free slot.");
    /** Pages the driver pins per get_user_pages call when pinning is overlapped. */
    public static final Parameter PIN_CHUNK_PAGES = Parameter.count("openmx.pin.chunk_pages",
            "Pages the Open-MX driver pins per get_user_pages call when overlapped pinning proceeds through a region;"
            + " each chunk becomes usable once its pinning work has run on the core.");

    /**
     * How often Open-MX asks again for a dropped packet before it gives a connection up: the
     * library's own retransmission over Ethernet, not the fabric's, so it holds whatever NIC the
     * profile describes.
     */
    public static final Parameter RETRY_LIMIT = Parameter.count("openmx.retry_limit",
            "Retransmissions of one packet the Open-MX library makes before it gives the connection up: its own"
            + " resends over Ethernet, whatever transport.retry_limit the profile's NIC has.").positive();

    private OpenMxParameters() {
    }
}
