package org.pagefabric.reg.openmx;

import org.pagefabric.reg.pinning.RangeCache;

/**
 * The user-space cache of declared regions (003 §3.2): a region is declared to the driver once
 * and found again by its exact address and length; a region used by a communication stays cached
 * while idle, ordered by its last use ({@link RangeCache} with exact lookup, overlapping regions,
 * recency by last acquisition, a bound in entries).
 *
 * <p>What is this cache's own is declaration: a declaration that finds {@code capacity} regions
 * declared undeclares at most one, the least recently used idle region, before it adds its own;
 * with none idle the cache grows past its capacity, and it does not shrink back on later
 * declarations. And pinning state is the driver's business, not the cache's: a cached region may
 * be unpinned (by an invalidation, or under memory pressure) and still be declared.
 */
final class RegionCache {
    private final RangeCache<UserRegion> regions;
    long hits;
    long misses;

    RegionCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("region cache of " + capacity + " entries");
        }
        this.regions = new RangeCache<>(RangeCache.Match.EXACT, RangeCache.Overlap.ALLOWED,
                RangeCache.Recency.LAST_ACQUIRE, RangeCache.Bound.entries(capacity));
    }

    /**
     * The declared region for {@code [va, va + length)} with one more user, now the most recent,
     * or null (a miss).
     */
    UserRegion lookup(long va, long length) {
        UserRegion r = regions.find(va, va + length);
        if (r == null) {
            misses++;
        } else {
            hits++;
            regions.take(r);
        }
        return r;
    }

    /**
     * Declares {@code r}, with one user, as the most recent; returns the least recently used idle
     * region undeclared to make room, or null.
     */
    UserRegion declare(UserRegion r) {
        UserRegion victim = null;
        if (regions.exceeds(1, 0)) {
            victim = regions.coldestIdle();
            if (victim != null) {
                regions.withdraw(victim);
                regions.discard(victim);
            }
        }
        regions.insert(r);
        return victim;
    }

    /** A communication no longer uses {@code r}; it stays declared. */
    void release(UserRegion r) {
        regions.release(r);
    }

    /** The least recently used declared region, in use or not, or null. */
    UserRegion coldest() {
        return regions.coldest();
    }

    /** The declared region used next after {@code r}, or null. */
    UserRegion warmer(UserRegion r) {
        return regions.warmer(r);
    }
}
