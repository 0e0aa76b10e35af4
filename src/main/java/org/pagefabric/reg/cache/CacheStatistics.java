package org.pagefabric.reg.cache;

/**
 * Counters of one registration cache, named as UCX's rcache statistics are: what was asked for,
 * what was found, and what the cache had to register, merge, evict and invalidate.
 */
public final class CacheStatistics {
    long gets;
    long hits;
    long misses;
    long merges;
    long puts;
    long evictions;
    long invalidations;
    long registrations;
    long deregistrations;
    long raceWindows;
    long lostInvalidations;

    /** Lookups (each local or remote key asked for). */
    public long gets() {
        return gets;
    }

    /** Lookups answered by a valid cached region covering the range. */
    public long hits() {
        return hits;
    }

    /** Lookups that registered a new region. */
    public long misses() {
        return misses;
    }

    /** Overlapping regions folded into a larger new one on a miss. */
    public long merges() {
        return merges;
    }

    /** References given back after an operation completed. */
    public long puts() {
        return puts;
    }

    /** Unused regions deregistered to stay within the limits. */
    public long evictions() {
        return evictions;
    }

    /** Regions dropped because their memory went away, as the monitor reported. */
    public long invalidations() {
        return invalidations;
    }

    /** Regions pinned and registered. */
    public long registrations() {
        return registrations;
    }

    /** Regions deregistered and unpinned. */
    public long deregistrations() {
        return deregistrations;
    }

    @Override
    public String toString() {
        return "gets=" + gets + " hits=" + hits + " misses=" + misses + " merges=" + merges + " puts=" + puts
                + " evictions=" + evictions + " invalidations=" + invalidations + " registrations=" + registrations
                + " deregistrations=" + deregistrations;
    }

    /**
     * Invalidations delivered in the unmapping thread while the cache's owner thread was inside a
     * registration: the windows in which an unsynchronised monitor can lose one.
     */
    public long raceWindows() {
        return raceWindows;
    }

    /** Invalidations of cached regions lost to a concurrent update: those regions stayed valid. */
    public long lostInvalidations() {
        return lostInvalidations;
    }
}
