package org.pagefabric.reg.cache;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.agrona.collections.Int2ObjectHashMap;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.OsException;
import org.pagefabric.sim.collect.LongSortedMap;

/**
 * One process's pin-down cache: page-aligned regions registered on first use and kept after it.
 *
 * <p>Valid regions sit in an index by start address, never overlapping: a range covered by one
 * is a hit; a miss folds the valid regions it overlaps into one larger new registration, as
 * UCX's rcache merges. A region is referenced while an operation uses it and sits in the LRU
 * while unused; the limits evict from the LRU's cold end, never a region in use. A region that
 * is invalidated (by the {@link InvalidationMonitor}), merged or evicted leaves the index at
 * once, so it is never handed out again, and is deregistered when its last user releases it;
 * invalidations that arrive during an application call are deregistered at the next cache
 * operation, which pays for them.
 *
 * <p>Every operation returns the time it took in picoseconds; the caller charges it.
 */
public final class RegistrationCache {
    private final NicRegistrar registrar;
    private final InvalidationMonitor monitor;
    private final CacheLimits limits;
    private final long lookupPs;
    /** Valid regions by start address; they never overlap. */
    private final LongSortedMap<CacheEntry> index = new LongSortedMap<>();
    /** Valid regions nobody uses, least recently used first. */
    private final LinkedHashSet<CacheEntry> lru = new LinkedHashSet<>();
    /** Invalidated regions nobody uses, waiting to be deregistered by the next operation. */
    private final ArrayDeque<CacheEntry> dead = new ArrayDeque<>();
    /** Every registered region, valid or not, by id. */
    private final Int2ObjectHashMap<CacheEntry> registered = new Int2ObjectHashMap<>();
    private final CacheStatistics stats = new CacheStatistics();
    private long registeredBytes;
    private int nextId = 1;

    /**
     * A cache that registers through {@code registrar}, learns of invalidations from
     * {@code monitor} and keeps within {@code limits}.
     *
     * @param lookupPs the time of one lookup
     */
    public RegistrationCache(NicRegistrar registrar, InvalidationMonitor monitor, CacheLimits limits, long lookupPs) {
        this.registrar = registrar;
        this.monitor = monitor;
        this.limits = limits;
        this.lookupPs = lookupPs;
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
        int floor = index.floorIndex(start);
        if (floor >= 0 && index.value(floor).covers(start, end)) {
            CacheEntry e = index.value(floor);
            take(e);
            stats.hits++;
            return new Lookup(e, cost);
        }
        stats.misses++;
        for (CacheEntry o : validOverlapping(start, end)) {
            start = Math.min(start, o.start());
            end = Math.max(end, o.end());
            stats.merges++;
            cost += retire(o);
        }
        cost += makeRoom(end - start);
        NicRegistrar.Registration r;
        try {
            r = registrar.register(start, end - start);
        } catch (OsException e) {
            if (lru.isEmpty()) {
                throw e;
            }
            // as Open MPI's grdma: out of pinnable memory, evict every unused region and retry once
            cost += e.costPs();
            while (!lru.isEmpty()) {
                cost += evict(lru.getFirst());
            }
            r = registrar.register(start, end - start);
        }
        CacheEntry e = new CacheEntry(nextId++, start, end, r);
        cost += r.costPs();
        stats.registrations++;
        registered.put(e.id(), e);
        registeredBytes += e.length();
        index.put(start, e);
        monitor.watch(e);
        e.refs = 1;
        return new Lookup(e, cost);
    }

    /**
     * Gives back a reference taken by {@link #acquire}. A region left unused goes to the LRU if
     * still valid (and the limits are enforced again), or is deregistered if not.
     *
     * @return the time it took, picoseconds
     */
    public long release(CacheEntry e) {
        if (e.refs <= 0) {
            throw new IllegalStateException("release of " + e + " without a reference");
        }
        stats.puts++;
        e.refs--;
        if (e.refs > 0) {
            return 0;
        }
        if (!e.valid) {
            return deregister(e);
        }
        lru.add(e);
        return makeRoom(0);
    }

    /**
     * The memory of {@code [start, end)} went away: every valid region overlapping it leaves the
     * index and will be deregistered (now by the next operation if unused, or by its last
     * release). Called by the monitor, possibly inside an application's system call, so it costs
     * the cache nothing here.
     */
    public void invalidate(long start, long end) {
        for (CacheEntry o : validOverlapping(start, end)) {
            o.valid = false;
            index.remove(o.start());
            stats.invalidations++;
            if (o.refs == 0) {
                lru.remove(o);
                dead.add(o);
            }
        }
    }

    /** The registered region with this id (valid or waiting for its last user), or null. */
    public CacheEntry entry(int id) {
        return registered.get(id);
    }

    /** The valid region covering {@code va}, or null (no reference taken, nothing charged). */
    public CacheEntry find(long va) {
        int floor = index.floorIndex(va);
        return floor >= 0 && index.value(floor).end() > va ? index.value(floor) : null;
    }

    /** Valid regions nobody uses, least recently used first. */
    public List<CacheEntry> unused() {
        return List.copyOf(lru);
    }

    /** Regions registered now (valid ones and invalid ones still in use or not yet reaped). */
    public int registeredEntries() {
        return registered.size();
    }

    /** Bytes pinned now. */
    public long pinnedBytes() {
        return registeredBytes;
    }

    /** The counters. */
    public CacheStatistics statistics() {
        return stats;
    }

    /** Valid regions overlapping {@code [start, end)}, in address order. */
    List<CacheEntry> validOverlapping(long start, long end) {
        List<CacheEntry> out = new ArrayList<>();
        for (int i = Math.max(index.floorIndex(start), 0); i < index.size(); i++) {
            CacheEntry e = index.value(i);
            if (e.start() >= end) {
                break;
            }
            if (e.overlaps(start, end)) {
                out.add(e);
            }
        }
        return out;
    }

    private void take(CacheEntry e) {
        if (e.refs++ == 0) {
            lru.remove(e);
        }
    }

    /** Deregisters invalidated regions nobody uses. */
    private long reap() {
        long cost = 0;
        CacheEntry e;
        while ((e = dead.poll()) != null) {
            cost += deregister(e);
        }
        return cost;
    }

    /** Takes a valid region out of the index (merged into a larger one): now if unused, else at its release. */
    private long retire(CacheEntry e) {
        e.valid = false;
        index.remove(e.start());
        if (e.refs == 0) {
            lru.remove(e);
            return deregister(e);
        }
        return 0;
    }

    /** Evicts unused regions, coldest first, until {@code incoming} more bytes and one more region (if any) fit. */
    private long makeRoom(long incoming) {
        int more = incoming > 0 ? 1 : 0;
        long cost = 0;
        while (!lru.isEmpty() && (registered.size() + more > limits.maxEntries()
                || registeredBytes + incoming > limits.maxBytes())) {
            cost += evict(lru.getFirst());
        }
        return cost;
    }

    private long evict(CacheEntry e) {
        stats.evictions++;
        return retire(e);
    }

    private long deregister(CacheEntry e) {
        registered.remove(e.id());
        registeredBytes -= e.length();
        monitor.unwatch(e);
        stats.deregistrations++;
        return registrar.deregister(e.registration());
    }
}
