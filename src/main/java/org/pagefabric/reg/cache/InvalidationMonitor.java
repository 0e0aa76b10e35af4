package org.pagefabric.reg.cache;

/**
 * How a registration cache learns that memory it holds registered went away (unmapped, given
 * back with madvise, remapped): the memory monitor of UCX's rcache and libfabric's MR cache.
 * Reported ranges are passed to {@link RegistrationCache#invalidate(long, long)}.
 */
public interface InvalidationMonitor {
    /** Connects the monitor to the cache it reports to; called once, by the cache. */
    void bind(RegistrationCache cache);

    /** Starts watching a newly registered entry. */
    void watch(CacheEntry entry);

    /** Stops watching an entry that is being deregistered. */
    void unwatch(CacheEntry entry);

    /**
     * Delivers what the monitor learned but has not reported yet; the cache calls it before every
     * lookup. Synchronous monitors report as events happen and have nothing to do here.
     */
    default void poll() {
    }
}
