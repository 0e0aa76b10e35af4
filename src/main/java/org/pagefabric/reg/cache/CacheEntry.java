package org.pagefabric.reg.cache;

/**
 * One cached registration: a page-aligned range, the region the NIC knows it by, and the
 * cache's bookkeeping (references held by operations in flight, whether it may still be handed
 * out, the monitor's handle on it).
 */
public final class CacheEntry {
    private final int id;
    private final long start;
    private final long end;
    private final NicRegistrar.Registration registration;
    int refs;
    boolean valid = true;
    /** What the monitor needs to stop watching this entry (a notifier subscription), or null. */
    Object watch;

    CacheEntry(int id, long start, long end, NicRegistrar.Registration registration) {
        this.id = id;
        this.start = start;
        this.end = end;
        this.registration = registration;
    }

    /** The cache's number for this entry, unique within its cache; a remote peer names it by this. */
    public int id() {
        return id;
    }

    /** First byte (page-aligned). */
    public long start() {
        return start;
    }

    /** One past the last byte (page-aligned). */
    public long end() {
        return end;
    }

    /** Bytes covered. */
    public long length() {
        return end - start;
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
        return refs;
    }

    /**
     * Whether the cache may still hand it out: false once it was invalidated, merged into a larger
     * region or evicted (it stays registered until its last reference is released).
     */
    public boolean valid() {
        return valid;
    }

    NicRegistrar.Registration registration() {
        return registration;
    }

    boolean covers(long from, long to) {
        return start <= from && to <= end;
    }

    boolean overlaps(long from, long to) {
        return start < to && from < end;
    }

    @Override
    public String toString() {
        return "entry" + id + "[" + Long.toHexString(start) + ", " + Long.toHexString(end) + ") refs=" + refs
                + (valid ? "" : " invalid");
    }
}
