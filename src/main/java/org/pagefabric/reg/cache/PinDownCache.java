package org.pagefabric.reg.cache;

import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.agrona.collections.IntArrayQueue;
import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.ActiveMessages;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.endpoint.JobLayout;
import org.pagefabric.reg.Metric;
import org.pagefabric.reg.PerRank;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.reg.pinning.BufferHolds;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.process.SimLock;
import org.pagefabric.sim.process.SimProcess;

/**
 * The pin-down cache as a registration policy: every rank keeps a {@link RegistrationCache} of
 * its own buffers, invalidated by the chosen {@link MonitorKind}.
 *
 * <p>Local keys come from the initiator's cache. Remote keys come from the target's cache, through
 * an active-message request that looks the range up (registering it on a miss) and replies with
 * the rkey and the entry's id: a network round trip per operation, as 004 §5 describes the
 * pin-down cache. The initiator does not cache remote keys, because nothing would tell it when
 * the target's memory goes away: a remote key cache is stale under every monitor, the kernel's
 * included. The target holds a reference on the entry until the initiator, after the completion,
 * sends a release (from a daemon process, so the application does not wait), so that the region
 * cannot be evicted while a transfer into it is in flight.
 *
 * <p>A receive's key is taken like any other, but {@link Endpoint} reports no receive completions to
 * the policy, so a receive buffer's entry stays referenced (never evicted) for the rest of the run.
 *
 * <p>A buffer the library frees for the application ({@link #free}) is freed outside the cache's
 * lock. With {@code cache.uffd.free_under_lock} under userfaultfd, the library frees it holding
 * the lock, as libfabric did before it deferred its cleanup (#5554): the unmap of a watched range
 * waits in the kernel until the monitor's reader thread has read the UNMAP event
 * ({@code userfaultfd_unmap_complete}), and the reader takes the cache's lock first, so the two
 * threads wait on each other for ever.
 */
public final class PinDownCache implements RegistrationPolicy {
    /** Active-message handler: look up (or register) a range and reply with rkey and entry id. */
    static final int ACQUIRE_HANDLER = 10;
    /** Active-message handler: release a reference taken by {@link #ACQUIRE_HANDLER}. */
    static final int RELEASE_HANDLER = 11;

    private final Profile profile;
    private final MonitorKind monitor;
    private final CacheLimits limits;
    private final long lookupPs;
    private final boolean freeUnderLock;
    private final PerRank<State> states = new PerRank<>();
    private ActiveMessages am;
    // what reset(HITS or MISSES) saw, so that a warm-up does not count in the hit rate
    private long hitsAtReset;
    private long missesAtReset;

    /** One rank's cache and the references its operations in flight hold. */
    private static final class State {
        final RegistrationCache cache;
        /** The cache's lock, as a library's threads share it. */
        final SimLock lock;
        /** Local references, by the buffer the completion names. */
        final BufferHolds<CacheEntry> localHolds = new BufferHolds<>();
        final Map<RemoteHold, IntArrayQueue> remoteHolds = new HashMap<>();
        RemoteReleases releases;

        State(RegistrationCache cache, SimLock lock) {
            this.cache = cache;
            this.lock = lock;
        }
    }

    /** A remote reference, as the completion names it. */
    private record RemoteHold(int target, long va, long length) {
    }

    /** The policy with {@code monitor}, costs and limits from {@code profile}. */
    public PinDownCache(Profile profile, MonitorKind monitor) {
        this.profile = profile;
        this.monitor = monitor;
        this.limits = new CacheLimits(profile.count(RegistrationCacheParameters.MAX_ENTRIES),
                profile.size(RegistrationCacheParameters.MAX_BYTES));
        this.lookupPs = monitor.lookupPs(profile);
        this.freeUnderLock = monitor == MonitorKind.UFFD && profile.flag(RegistrationCacheParameters.UFFD_FREE_UNDER_LOCK);
    }

    @Override
    public String name() {
        return monitor.policyName();
    }

    /** The monitor this policy runs with. */
    public MonitorKind monitor() {
        return monitor;
    }

    /** Nothing is registered up front: the cache fills as buffers are used. */
    @Override
    public long setUp(Endpoint rank) {
        NicRegistrar registrar = new NicRegistrar(rank.node().kernel(), rank.process(), rank.node().nic(), rank.pd(),
                profile);
        var sim = rank.node().simulator();
        states.put(rank, new State(new RegistrationCache(registrar, monitor.create(rank, profile), limits, lookupPs,
                sim::now), new SimLock(sim, rank.node().name() + ".rank" + rank.id() + ".mr-cache.lock")));
        return 0;
    }

    @Override
    public void start(JobLayout job) {
        am = ActiveMessages.attach(job);
        am.register(ACQUIRE_HANDLER, (ctx, target, source, va, length, a2, a3) -> {
            RegistrationCache.Lookup l = state(target).cache.acquire(va, length);
            sleep(ctx, l.costPs());
            return ((long) l.entry().id() << 32) | (l.entry().rkey() & 0xFFFF_FFFFL);
        });
        am.register(RELEASE_HANDLER, (ctx, target, source, id, a1, a2, a3) -> {
            RegistrationCache cache = state(target).cache;
            sleep(ctx, cache.release(cache.entry((int) id)));
            return 0;
        });
        for (Endpoint r : job.endpoints()) {
            state(r).releases = new RemoteReleases(job, am, r, RELEASE_HANDLER);
        }
    }

    @Override
    public Access local(ProcessContext ctx, Endpoint rank, long va, long length) {
        State s = state(rank);
        RegistrationCache.Lookup l = s.cache.acquire(va, length);
        s.localHolds.add(va, length, l.entry());
        return new Access(l.entry().lkey(), l.costPs());
    }

    @Override
    public Access remote(ProcessContext ctx, Endpoint initiator, Endpoint target, long va, long length) {
        if (am == null) {
            throw new IllegalStateException(name() + ": remote keys need start(job) first");
        }
        long reply = am.request(ctx, initiator, target, ACQUIRE_HANDLER, va, length, 0, 0);
        state(initiator).remoteHolds.computeIfAbsent(new RemoteHold(target.id(), va, length), k -> new IntArrayQueue())
                .addInt((int) (reply >>> 32));
        // the round trip's time has passed in ctx already
        return new Access((int) reply, 0);
    }

    @Override
    public void completed(ProcessContext ctx, Endpoint initiator, Endpoint target, long localVa, long remoteVa, long length) {
        State s = state(initiator);
        CacheEntry local = s.localHolds.poll(localVa, length);
        if (local != null) {
            sleep(ctx, s.cache.release(local));
        }
        if (target != null) {
            IntArrayQueue remote = s.remoteHolds.get(new RemoteHold(target.id(), remoteVa, length));
            if (remote != null && !remote.isEmpty()) {
                s.releases.release(target, remote.removeInt());
            }
        }
    }

    @Override
    public long free(ProcessContext ctx, Endpoint rank, long va, long length, LongSupplier free) {
        if (!freeUnderLock) {
            return free.getAsLong();
        }
        State s = state(rank);
        s.lock.acquire(ctx);
        long cost = free.getAsLong();
        if (s.cache.monitor() instanceof UffdMonitor uffd && uffd.pending() > 0) {
            sleep(ctx, cost);
            cost = 0;
            String reader = "rank" + rank.id() + "-uffd-reader";
            Completion read = new Completion("the UNMAP event of " + Long.toHexString(va) + "+" + length
                    + ", which munmap waits for " + reader + " to read");
            new SimProcess(rank.node().simulator(), rank.node(), reader, r -> {
                s.lock.acquire(r);
                uffd.poll();
                s.lock.release();
                read.complete();
            }).start();
            ctx.await(read);
        }
        s.lock.release();
        return cost;
    }

    @Override
    public long count(Metric metric) {
        if (metric == Metric.HITS || metric == Metric.MISSES) {
            // lookups served by a valid region, and those that registered: the cache's hit rate
            return lookups(metric) - (metric == Metric.HITS ? hitsAtReset : missesAtReset);
        }
        if (metric != Metric.RACE_WINDOWS && metric != Metric.LOST_INVALIDATIONS) {
            return NOT_COUNTED;
        }
        long[] n = {0};
        states.forEach(s -> n[0] += count(metric, s.cache));
        return n[0];
    }

    @Override
    public void reset(Metric metric) {
        if (metric == Metric.HITS) {
            hitsAtReset = lookups(metric);
        } else if (metric == Metric.MISSES) {
            missesAtReset = lookups(metric);
        }
    }

    /** Every rank's cache hits or misses so far. */
    private long lookups(Metric metric) {
        long[] n = {0};
        states.forEach(s -> n[0] += metric == Metric.HITS ? s.cache.statistics().hits() : s.cache.statistics().misses());
        return n[0];
    }

    @Override
    public long count(Metric metric, Endpoint rank) {
        if (metric != Metric.RACE_WINDOWS && metric != Metric.LOST_INVALIDATIONS) {
            return NOT_COUNTED;
        }
        return count(metric, state(rank).cache);
    }

    private static long count(Metric metric, RegistrationCache cache) {
        return metric == Metric.RACE_WINDOWS ? cache.statistics().raceWindows() : cache.statistics().lostInvalidations();
    }

    @Override
    public long pinnedBytes(Endpoint rank) {
        State s = states.get(rank);
        return s == null ? 0 : s.cache.pinnedBytes();
    }

    /** {@code rank}'s cache (for statistics and tests). */
    public RegistrationCache cache(Endpoint rank) {
        return state(rank).cache;
    }

    private State state(Endpoint rank) {
        State s = states.get(rank);
        if (s == null) {
            throw new IllegalStateException(name() + ": rank " + rank.id() + " was not set up");
        }
        return s;
    }

    private static void sleep(ProcessContext ctx, long ps) {
        if (ps > 0) {
            ctx.sleep(ps);
        }
    }
}
