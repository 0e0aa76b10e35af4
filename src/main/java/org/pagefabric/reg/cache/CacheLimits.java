package org.pagefabric.reg.cache;

/**
 * How much a registration cache may keep registered. Entries in use are never evicted, so both
 * limits can be exceeded while every entry is in use, as in UCX's rcache.
 *
 * @param maxEntries most regions registered at once
 * @param maxBytes   most bytes pinned at once
 */
public record CacheLimits(long maxEntries, long maxBytes) {
    /** Validates the limits. */
    public CacheLimits {
        if (maxEntries <= 0 || maxBytes <= 0) {
            throw new IllegalArgumentException("cache limits must be positive: " + maxEntries + " entries, "
                    + maxBytes + " bytes");
        }
    }
}
