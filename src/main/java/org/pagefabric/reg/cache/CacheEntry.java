package org.pagefabric.reg.cache;

import org.pagefabric.reg.pinning.CachedRange;

/**
 * One cached registration: a page-aligned range and the region the NIC knows it by. The cache
 * counts the operations in flight that use it and says whether it may still be handed out; the
 * monitor keeps its handle on it here.
 */
public final class CacheEntry extends CachedRange {
    private final int id;
    private final NicRegistrar.Registration registration;
    /** What the monitor needs to stop watching this entry (a notifier subscription), or null. */
    Object watch;

    CacheEntry(int id, long start, long end, NicRegistrar.Registration registration) {
        super(start, end);
        this.id = id;
        this.registration = registration;
    }

    /** The cache's number for this entry, unique within its cache; a remote peer names it by this. */
    public int id() {
        return id;
    }

    /** The local key. */
    public int lkey() {
        return registration.region().lkey();
    }

    /** The remote key. */
    public int rkey() {
        return registration.region().rkey();
    }

    /** Operations in flight that use this entry. */
    public int references() {
        return users();
    }

    /**
     * Whether the cache may still hand it out: false once it was invalidated, merged into a larger
     * region or evicted (it stays registered until its last reference is released).
     */
    public boolean valid() {
        return cached();
    }

    NicRegistrar.Registration registration() {
        return registration;
    }

    @Override
    public String toString() {
        return "entry" + id + "[" + Long.toHexString(start()) + ", " + Long.toHexString(end()) + ") refs=" + users()
                + (valid() ? "" : " invalid");
    }
}
