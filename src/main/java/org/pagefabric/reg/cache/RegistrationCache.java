package org.pagefabric.reg.cache;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;
import org.agrona.collections.Int2ObjectHashMap;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.OsException;
import org.pagefabric.reg.pinning.RangeCache;

/**
 * One process's pin-down cache: page-aligned regions registered on first use and kept after it.
 *
 * <p>Valid regions never overlap: a range covered by one is a hit; a miss folds the valid regions
 * it overlaps into one larger new registration, as UCX's rcache merges. A region is referenced
 * while an operation uses it; unused regions are ordered by when they fell idle, and the limits
 * evict from the coldest, never a region in use ({@link RangeCache} with merged ranges, recency by
 * last release). What is this cache's own is the lifetime of a region that stops being valid: a
 * region that is invalidated (by the {@link InvalidationMonitor}), merged or evicted leaves the
 * index at once, so it is never handed out again, yet stays registered, and counted against the
 * limits, until its last user releases it; invalidations that arrive during an application call
 * are deregistered at the next cache operation, which pays for them.
 *
 * <p>Every operation returns the time it took in picoseconds; the caller charges it.
 */
public final class RegistrationCache {
    private final NicRegistrar registrar;
    private final InvalidationMonitor monitor;
    private final long lookupPs;
    /** Valid regions; withdrawn ones stay held until deregistered. */
    private final RangeCache<CacheEntry> regions;
    /** Invalidated regions nobody uses, waiting to be deregistered by the next operation. */
    private final ArrayDeque<CacheEntry> dead = new ArrayDeque<>();
    /** Every registered region, valid or not, by id. */
    private final Int2ObjectHashMap<CacheEntry> registered = new Int2ObjectHashMap<>();
    private final CacheStatistics stats = new CacheStatistics();
    private final ToLongFunction<CacheEntry> evicted = this::evicted;
    private final ToLongFunction<CacheEntry> merged = this::merged;
    private final ToLongFunction<CacheEntry> invalidated = this::invalidated;
    private int nextId = 1;
    /** The simulated time, picoseconds (when an invalidation arrives relative to an update), or null: untimed. */
    private final LongSupplier clock;
    /** Until when the owner thread is inside a registration that rewrites the region index. */
    private long updatingUntilPs = Long.MIN_VALUE;

    /**
     * A cache that registers through {@code registrar}, learns of invalidations from
     * {@code monitor} and keeps within {@code limits}.
     *
     * @param lookupPs the time of one lookup
     */
    public RegistrationCache(NicRegistrar registrar, InvalidationMonitor monitor, CacheLimits limits, long lookupPs) {
        this(registrar, monitor, limits, lookupPs, null);
    }

    /**
     * A cache as above that reads the simulated time from {@code clock}, so that it knows when an
     * invalidation arrives while its owner is still inside a registration (a race window); with a
     * null clock it never does.
     */
    public RegistrationCache(NicRegistrar registrar, InvalidationMonitor monitor, CacheLimits limits, long lookupPs,
                             LongSupplier clock) {
        this.clock = clock;
        this.registrar = registrar;
        this.monitor = monitor;
        this.lookupPs = lookupPs;
        this.regions = new RangeCache<>(RangeCache.Match.COVERING, RangeCache.Overlap.MERGED,
                RangeCache.Recency.LAST_RELEASE, new RangeCache.Bound(limits.maxEntries(), limits.maxBytes()));
        monitor.bind(this);
    }

    /**
     * What a lookup found or registered.
     *
     * @param entry  the region, with one reference taken for the caller
     * @param costPs the time the lookup took (registration, evictions and pending deregistrations
     *               included), picoseconds
     */
    public record Lookup(CacheEntry entry, long costPs) {
    }

    /**
     * A registered region covering {@code [va, va + length)}, with a reference taken: the cached
     * one, or a new registration (merged with the valid regions it overlaps). Release it with
     * {@link #release(CacheEntry)} when the operation has completed.
     *
     * @throws OsException if the range cannot be pinned even after evicting every unused region
     */
    public Lookup acquire(long va, long length) {
        if (length <= 0) {
            throw new IllegalArgumentException("lookup of " + length + " bytes");
        }
        monitor.poll();
        long cost = lookupPs + reap();
        stats.gets++;
        long start = va & -Kernel.PAGE_SIZE;
        long end = (va + length + Kernel.PAGE_SIZE - 1) & -Kernel.PAGE_SIZE;
        CacheEntry hit = regions.find(start, end);
        if (hit != null) {
            regions.take(hit);
            stats.hits++;
            return new Lookup(hit, cost);
        }
        stats.misses++;
        long from = regions.mergedStart(start, end);
        long to = regions.mergedEnd(start, end);
        cost += regions.withdrawOverlapping(from, to, merged);
        cost += regions.evictOver(1, to - from, evicted);
        NicRegistrar.Registration r;
        try {
            r = registrar.register(from, to - from);
        } catch (OsException e) {
            if (regions.coldestIdle() == null) {
                throw e;
            }
            // as Open MPI's grdma: out of pinnable memory, evict every unused region and retry once
            cost += e.costPs();
            cost += regions.evictIdle(evicted);
            r = registrar.register(from, to - from);
        }
        CacheEntry e = new CacheEntry(nextId++, from, to, r);
        cost += r.costPs();
        stats.registrations++;
        registered.put(e.id(), e);
        regions.insert(e);
        monitor.watch(e);
        if (clock != null) {
            // the caller charges the cost after this returns: the index is being rewritten until then
            updatingUntilPs = clock.getAsLong() + cost;
        }
        return new Lookup(e, cost);
    }

    /**
     * Gives back a reference taken by {@link #acquire}. A region left unused becomes the most
     * recent if still valid (and the limits are enforced again), or is deregistered if not.
     *
     * @return the time it took, picoseconds
     */
    public long release(CacheEntry e) {
        boolean unused = regions.release(e);
        stats.puts++;
        if (!unused) {
            return 0;
        }
        if (!e.valid()) {
            return drop(e);
        }
        return regions.evictOver(0, 0, evicted);
    }

    /**
     * The memory of {@code [start, end)} went away: every valid region overlapping it leaves the
     * index and will be deregistered (now by the next operation if unused, or by its last
     * release). Called by the monitor, possibly inside an application's system call, so it costs
     * the cache nothing here.
     */
    public void invalidate(long start, long end) {
        if (updating()) {
            stats.raceWindows++;
        }
        regions.withdrawOverlapping(start, end, invalidated);
    }

    /**
     * An invalidation of {@code [start, end)} that raced the owner's update of the index and was
     * overwritten by it: the regions it names stay valid (a lost update), counted.
     */
    void lose(long start, long end) {
        stats.raceWindows++;
        if (regions.firstOverlapping(start, end) != null) {
            stats.lostInvalidations++;
        }
    }

    /** Whether the owner thread is inside a registration now (the index is being rewritten). */
    boolean updating() {
        return clock != null && clock.getAsLong() < updatingUntilPs;
    }

    /** The registered region with this id (valid or waiting for its last user), or null. */
    public CacheEntry entry(int id) {
        return registered.get(id);
    }

    /** The valid region covering {@code va}, or null (no reference taken, nothing charged). */
    public CacheEntry find(long va) {
        return regions.find(va, va + 1);
    }

    /** Valid regions nobody uses, least recently used first. */
    public List<CacheEntry> unused() {
        List<CacheEntry> out = new ArrayList<>();
        for (CacheEntry e = regions.coldest(); e != null; e = regions.warmer(e)) {
            if (e.references() == 0) {
                out.add(e);
            }
        }
        return List.copyOf(out);
    }

    /** Regions registered now (valid ones and invalid ones still in use or not yet reaped). */
    public int registeredEntries() {
        return regions.heldEntries();
    }

    /** Bytes pinned now. */
    public long pinnedBytes() {
        return regions.heldBytes();
    }

    /** The monitor that reports to this cache. */
    InvalidationMonitor monitor() {
        return monitor;
    }

    /** The counters. */
    public CacheStatistics statistics() {
        return stats;
    }

    /** The valid region overlapping {@code [start, end)} at the lowest address, or null. */
    CacheEntry firstValidOverlapping(long start, long end) {
        return regions.firstOverlapping(start, end);
    }

    /** The next valid region overlapping {@code [start, end)} above {@code previous} (still valid), or null. */
    CacheEntry nextValidOverlapping(CacheEntry previous, long start, long end) {
        return regions.nextOverlapping(previous, start, end);
    }

    /** Deregisters invalidated regions nobody uses. */
    private long reap() {
        long cost = 0;
        CacheEntry e;
        while ((e = dead.poll()) != null) {
            cost += drop(e);
        }
        return cost;
    }

    /** A region folded into a larger one on a miss: deregistered now if unused, else at its last release. */
    private long merged(CacheEntry e) {
        stats.merges++;
        return e.references() == 0 ? drop(e) : 0;
    }

    /** A region whose memory went away: deregistered by the next operation if unused, else at its last release. */
    private long invalidated(CacheEntry e) {
        stats.invalidations++;
        if (e.references() == 0) {
            dead.add(e);
        }
        return 0;
    }

    /** An unused region evicted to stay within the limits (the cache no longer counts it). */
    private long evicted(CacheEntry e) {
        stats.evictions++;
        return deregister(e);
    }

    /** Deregisters a withdrawn region nobody uses any more. */
    private long drop(CacheEntry e) {
        regions.discard(e);
        return deregister(e);
    }

    private long deregister(CacheEntry e) {
        registered.remove(e.id());
        monitor.unwatch(e);
        stats.deregistrations++;
        return registrar.deregister(e.registration());
    }
}
