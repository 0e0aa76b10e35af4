package org.pagefabric.hw.profile.param;

import org.pagefabric.hw.profile.Parameter;

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
    /** Bytes per second of the receive-side copy. */
    public static final Parameter RECV_COPY_BANDWIDTH = Parameter.bandwidth("openmx.recv.copy_bandwidth",
            "Rate of the receive-side copy from the socket buffer into the pinned region.");
    /** Region descriptors the user-space region cache keeps. */
    public static final Parameter REGION_CACHE_ENTRIES = Parameter.count("openmx.region_cache.entries",
            "User regions the user-space cache keeps declared before evicting the least recently used.");

    private OpenMxParameters() {
    }
}
