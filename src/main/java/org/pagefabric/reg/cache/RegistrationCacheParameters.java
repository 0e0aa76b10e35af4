package org.pagefabric.reg.cache;

import org.pagefabric.config.Parameter;

/** The pin-down (registration) cache: what a lookup costs and how much it may keep registered. */
public final class RegistrationCacheParameters {
    /** Time of one lookup in the cache. */
    public static final Parameter LOOKUP = Parameter.time("cache.lookup",
            "Time of one registration-cache lookup: a search of the region tree, the LRU update and a check of "
                    + "the invalidation monitor's queue.");
    /** Most regions the cache keeps registered. */
    public static final Parameter MAX_ENTRIES = Parameter.count("cache.max_entries",
            "Most regions the registration cache keeps registered; beyond it the least recently used unused "
                    + "region is deregistered.").positive();
    /** Most bytes the cache keeps pinned. */
    public static final Parameter MAX_BYTES = Parameter.size("cache.max_bytes",
            "Most bytes the registration cache keeps pinned; beyond it least recently used unused regions are "
                    + "deregistered.");

    /** The part of a lookup that asks the monitor for events by a system call. */
    public static final Parameter POLL = Parameter.time("cache.poll",
            "The part of cache.lookup spent asking the invalidation monitor for events with a system call (an empty "
                    + "non-blocking read() on its descriptor); a monitor that announces events in shared memory, as "
                    + "kdreg2 does, replaces it with cache.kdreg2.check.")
            .withDefault("60 ns", "assumed: a system-call entry and exit that finds nothing, tens of ns on a current "
                    + "core and more with speculation mitigations, taken as 60 of cache.lookup's assumed 100 ns");
    /** What kdreg2 charges a lookup instead of {@link #POLL}. */
    public static final Parameter KDREG2_CHECK = Parameter.time("cache.kdreg2.check",
            "Time of kdreg2's check on a lookup: a load of the pending-events counter in the status page the "
                    + "module maps read-only into the process (kdreg2_read_counter, a volatile load, no system call).")
            .withDefault("2 ns", "assumed: one load from a page the kernel writes only when a mapping changes, a "
                    + "cache hit on a current core while nothing changed (shs-kdreg2 include/kdreg2.h)");

    private RegistrationCacheParameters() {
    }
}
