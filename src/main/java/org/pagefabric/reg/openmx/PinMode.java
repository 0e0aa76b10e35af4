package org.pagefabric.reg.openmx;

/** When the Open-MX driver pins a communication's user region and when it lets it go (003 §3-4). */
public enum PinMode {
    /** Pin the whole region before the communication, unpin it when the communication ends (Fig. 6 baseline). */
    PER_COMMUNICATION("openmx-pin", "Open-MX: pin both buffers at the start of each communication, unpin at its end"),
    /** Pin each buffer the first time it is used and keep it pinned (Fig. 6). */
    PERMANENT("openmx-permanent", "Open-MX: each buffer pinned the first time it is used and kept pinned"),
    /**
     * Decoupled on-demand pinning: regions declared in a user-space LRU cache, pinned by the driver
     * on first use, kept pinned, unpinned by MMU-notifier invalidation or memory pressure (003 §3.1-3.2).
     */
    CACHE("openmx-cache", "Open-MX decoupled on-demand pinning: user-space LRU region cache, driver pins on first"
            + " use, MMU notifiers unpin on invalidation"),
    /**
     * Overlapped pinning without the cache: the rendezvous and the pull start before pinning ends;
     * a packet for a page not pinned yet is dropped (an Overlap-Miss) and asked for again (003 §3.3).
     */
    OVERLAP("openmx-overlap", "Open-MX overlapped pinning: the pull starts at once while the driver pins page by"
            + " page; a packet for an unpinned page is dropped (Overlap-Miss) and requested again");

    private final String policyName;
    private final String description;

    PinMode(String policyName, String description) {
        this.policyName = policyName;
        this.description = description;
    }

    /** The command-line policy name. */
    public String policyName() {
        return policyName;
    }

    /** One line for {@code info policies}. */
    public String description() {
        return description;
    }
}
