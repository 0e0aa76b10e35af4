package org.pagefabric.reg.openmx;

import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The user-space cache of declared regions (003 §3.2): a region is declared to the driver once
 * and found again by its address and length; when more than {@code capacity} are declared, the
 * least recently used idle one is undeclared. Pinning state is the driver's business, not the
 * cache's: a cached region may be unpinned (by an invalidation) and still be declared.
 */
final class RegionCache {
    private final int capacity;
    /** Access-ordered: iteration starts at the least recently used region (deterministic). */
    private final LinkedHashMap<Key, UserRegion> regions = new LinkedHashMap<>(16, 0.75f, true);
    long hits;
    long misses;

    private record Key(long va, long length) {
    }

    RegionCache(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("region cache of " + capacity + " entries");
        }
        this.capacity = capacity;
    }

    /** The declared region for {@code [va, va + length)}, or null (a miss); a hit becomes the most recent. */
    UserRegion lookup(long va, long length) {
        UserRegion r = regions.get(new Key(va, length));
        if (r == null) {
            misses++;
        } else {
            hits++;
        }
        return r;
    }

    /** Declares {@code r}; returns the least recently used idle region evicted to make room, or null. */
    UserRegion declare(UserRegion r) {
        UserRegion victim = null;
        if (regions.size() >= capacity) {
            for (Iterator<Map.Entry<Key, UserRegion>> it = regions.entrySet().iterator(); it.hasNext(); ) {
                UserRegion v = it.next().getValue();
                if (v.users == 0) {
                    it.remove();
                    victim = v;
                    break;
                }
            }
        }
        regions.put(new Key(r.va, r.length), r);
        return victim;
    }

    /** Idle regions from the least recently used, for unpinning under pressure. */
    Iterable<UserRegion> leastRecentFirst() {
        return regions.values();
    }

    int size() {
        return regions.size();
    }
}
