package org.pagefabric.reg.rendezvous;

import org.pagefabric.config.Parameter;

/** Rendezvous with and without unpin: pin on demand after a handshake, sources in a local pin cache (seed 004 §4.2). */
public final class RendezvousParameters {
    /** Pinned bytes the local pin cache of sources may hold. */
    public static final Parameter LOCAL_CACHE_SIZE = Parameter.size("rendezvous.local_cache.size",
            "Pinned bytes of local buffers the initiator's pin cache keeps, least recently used evicted first.");
    /** Time of one lookup in a cache of pinned ranges. */
    public static final Parameter CACHE_LOOKUP = Parameter.time("rendezvous.cache.lookup",
            "Time of one lookup in the local pin cache, or in the ranges a no-unpin target keeps pinned for its peers.");

    private RendezvousParameters() {
    }
}
