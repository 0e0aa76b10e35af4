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

    private RegistrationCacheParameters() {
    }
}
