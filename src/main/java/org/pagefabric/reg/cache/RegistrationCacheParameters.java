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

    /** Whether an intercepted unmap can update the cache while another thread of the process does. */
    public static final Parameter HOOKS_UNSYNCHRONISED = Parameter.flag("cache.hooks.unsynchronised",
            "Memory hooks whose invalidation is not serialised with the cache's own updates: an unmap that an "
                    + "application thread makes while another thread is registering a region in the cache is lost "
                    + "(the updating thread writes back the region index it read before the removal), so the "
                    + "freed range keeps its registration; cache-hooks only.")
            .withDefault("false", "assumed: off; libfabric's ofi_intercept_handler takes mm_lock around "
                    + "ofi_monitor_notify (prov/util/src/util_mem_hooks.c); on stands for the hooks' documented "
                    + "thread-safety hazard (libfabric #10943, #7569, PR #11282, PR #11866)");
    /** Whether the cache frees memory while holding its lock, under the userfaultfd monitor. */
    public static final Parameter UFFD_FREE_UNDER_LOCK = Parameter.flag("cache.uffd.free_under_lock",
            "The library frees memory it drops from the cache while still holding the cache's lock; the unmap of "
                    + "a range the userfaultfd watches waits in the kernel until the monitor's reader thread has "
                    + "read the UNMAP event, and the reader needs that lock first; cache-uffd only.")
            .withDefault("false", "assumed: off; libfabric defers deregistration and frees out of the monitor "
                    + "lock (commit 3d01df77 \"Defer MR cleanup to flush operation\", after #5554); on is the "
                    + "behaviour #5554 reports");

    private RegistrationCacheParameters() {
    }
}
