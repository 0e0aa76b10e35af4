package org.pagefabric.reg.rendezvous;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.IntArrayQueue;
import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.ActiveMessages;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.endpoint.JobLayout;
import org.pagefabric.reg.Metric;
import org.pagefabric.reg.PerRank;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.reg.pinning.PinnedRange;
import org.pagefabric.reg.pinning.RangePinner;
import org.pagefabric.reg.Statistic;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.stat.Counter;

/**
 * Rendezvous (004 §3.3, §4.2): nothing is pinned up front. "Upon sending a put, the Rendezvous
 * algorithm pins the source memory (if necessary) and sends an Active Message to the remote node
 * indicating the destination memory to be pinned": the initiator pins its own buffer through a
 * {@link LocalPinCache}, then every remote operation waits for that handshake, whose handler at
 * the target pins and registers the range and replies with the remote key; only then does the
 * transfer start.
 *
 * <p>Two variants. <b>With unpin</b>, once the operation's completion is reaped the initiator
 * sends a second active message whose handler deregisters and unpins the range, so the target
 * holds nothing between operations and every operation pays the handshake, the pin and the
 * unpin. <b>Without unpin</b>, the target keeps every range it pinned and answers a later
 * request for covered memory from those ({@link KeptRanges}) without pinning again; the
 * handshake itself is still paid on every operation (004 §4.4, Fig. 5: Firehose beats it
 * "because it requires no handshaking messages before performing a DMA"), and pinned memory at
 * the target grows with the set of ranges ever written.
 */
public final class Rendezvous implements RegistrationPolicy {
    /** Command-line name of the variant that unpins after every operation. */
    public static final String WITH_UNPIN = "rendezvous-unpin";
    /** Command-line name of the variant that leaves remote ranges pinned. */
    public static final String NO_UNPIN = "rendezvous-nounpin";
    /** Active-message handler that pins and registers a range at the target; replies its key. */
    static final int PIN_HANDLER = 20;
    /** Active-message handler that deregisters and unpins a range at the target. */
    static final int UNPIN_HANDLER = 21;
    /** The remote key in a pin reply. */
    private static final long KEY_MASK = 0xFFFF_FFFFL;
    /** Set in a pin reply whose handler had to pin (the range was not kept pinned already). */
    private static final long PINNED = 1L << 32;

    private final boolean unpin;
    private final Profile profile;
    private final long localCacheBytes;
    private final long lookupPs;
    private final PerRank<RankState> states = new PerRank<>();
    private ActiveMessages messages;
    /** Handshakes the target answered from ranges it kept pinned, and those that pinned. */
    private Counter hits;
    private Counter misses;

    /** A remote buffer of one operation, to find its registration again when it completes. */
    private record RemoteBuffer(int target, long va, long length) {
    }

    /** What the policy keeps for one rank, as initiator and as target. */
    private static final class RankState {
        final RangePinner pinner;
        final LocalPinCache localCache;
        /** Ranges this rank pinned for its peers, by remote key. */
        final Int2ObjectHashMap<PinnedRange> pinnedForPeers = new Int2ObjectHashMap<>();
        /** Without unpin: the same ranges by address, kept pinned and reused for later requests. */
        final KeptRanges kept = new KeptRanges();
        /** With unpin: remote keys of operations not yet completed, oldest first per buffer. */
        final Map<RemoteBuffer, IntArrayQueue> toUnpin = new HashMap<>();
        /** Remote operations this rank started that needed the pin handshake. */
        long handshakes;

        RankState(RangePinner pinner, long localCacheBytes) {
            this.pinner = pinner;
            this.localCache = new LocalPinCache(pinner, localCacheBytes);
        }
    }

    /**
     * The policy with costs from {@code profile}.
     *
     * @param unpin whether the target unpins each range after its operation
     */
    public Rendezvous(Profile profile, boolean unpin) {
        this.unpin = unpin;
        this.profile = profile;
        this.localCacheBytes = profile.size(RendezvousParameters.LOCAL_CACHE_SIZE);
        this.lookupPs = profile.time(RendezvousParameters.CACHE_LOOKUP);
    }

    private static final Statistic HITS = new Statistic("<policy>.hits", "operations",
            "remote operations whose handshake found the target range pinned already (no pin)");
    private static final Statistic MISSES = new Statistic("<policy>.misses", "operations",
            "remote operations whose handshake pinned the target range");

    /** What the policy counts, as its descriptor lists it. */
    static final List<Statistic> STATISTICS = List.of(HITS, MISSES);

    @Override
    public String name() {
        return unpin ? WITH_UNPIN : NO_UNPIN;
    }

    /** Nothing is pinned up front: the rank only gets its pinner and its local pin cache. */
    @Override
    public long setUp(Endpoint rank) {
        if (hits == null) {
            var stats = rank.node().simulator().statistics();
            hits = HITS.counterOf(stats, name());
            misses = MISSES.counterOf(stats, name());
        }
        states.put(rank, new RankState(new RangePinner(profile, rank), localCacheBytes));
        return 0;
    }

    @Override
    public void start(JobLayout job) {
        messages = ActiveMessages.attach(job);
        messages.register(PIN_HANDLER, (ctx, target, source, va, length, a2, a3) -> pinForPeer(ctx, target, va, length));
        messages.register(UNPIN_HANDLER, (ctx, target, source, rkey, a1, a2, a3) -> unpinForPeer(ctx, target,
                (int) rkey));
    }

    /**
     * The target's handler: without unpin, a kept range covering the request answers it (a
     * lookup); otherwise it pins and registers the range, charging the time. Returns the remote
     * key, with {@link #PINNED} set if it had to pin.
     */
    private long pinForPeer(ProcessContext ctx, Endpoint target, long va, long length) {
        RankState s = state(target);
        if (!unpin) {
            ctx.sleep(lookupPs);
            PinnedRange kept = s.kept.find(va, length);
            if (kept != null) {
                return kept.region().rkey() & KEY_MASK;
            }
        }
        RangePinner.Pinned p = s.pinner.pin(va, length);
        ctx.sleep(p.costPs());
        int rkey = p.range().region().rkey();
        s.pinnedForPeers.put(rkey, p.range());
        if (!unpin) {
            s.kept.add(p.range());
        }
        return (rkey & KEY_MASK) | PINNED;
    }

    /** The target's handler: deregisters and unpins the range registered under {@code rkey}, charging the time. */
    private long unpinForPeer(ProcessContext ctx, Endpoint target, int rkey) {
        RankState s = state(target);
        PinnedRange range = s.pinnedForPeers.remove(rkey);
        if (range == null) {
            throw new IllegalStateException("rank " + target.id() + " holds no range under key " + rkey);
        }
        ctx.sleep(s.pinner.unpin(range));
        return 0;
    }

    /** The rank's buffer from its local pin cache: pinned now on a miss, found on a hit. */
    @Override
    public Access local(ProcessContext ctx, Endpoint rank, long va, long length) {
        LocalPinCache.Acquired a = state(rank).localCache.acquire(va, length);
        return new Access(a.lkey(), lookupPs + a.costPs());
    }

    /**
     * The target's key for the range, by the rendezvous handshake: the initiator sends the pin
     * request and waits for the reply, whether or not the target still holds the range pinned.
     */
    @Override
    public Access remote(ProcessContext ctx, Endpoint initiator, Endpoint target, long va, long length) {
        RankState s = state(initiator);
        s.handshakes++;
        long reply = messages.request(ctx, initiator, target, PIN_HANDLER, va, length, 0, 0);
        ((reply & PINNED) != 0 ? misses : hits).increment();
        int rkey = (int) (reply & KEY_MASK);
        if (unpin) {
            s.toUnpin.computeIfAbsent(new RemoteBuffer(target.id(), va, length), b -> new IntArrayQueue()).addInt(rkey);
        }
        return new Access(rkey, 0);
    }

    /**
     * Returns the local buffer to the pin cache (unpinning least recently used ranges over its
     * bound) and, with unpin, sends the unpin message for the operation's remote range and
     * waits for its reply.
     */
    @Override
    public void completed(ProcessContext ctx, Endpoint initiator, Endpoint target, long localVa, long remoteVa, long length) {
        RankState s = state(initiator);
        long evicted = s.localCache.release(localVa, length);
        if (evicted > 0) {
            ctx.sleep(evicted);
        }
        if (unpin && target != null && remoteVa != 0) {
            IntArrayQueue keys = s.toUnpin.get(new RemoteBuffer(target.id(), remoteVa, length));
            if (keys == null) {
                throw new IllegalStateException("rank " + initiator.id() + " has no registration at rank " + target.id()
                        + " for 0x" + Long.toHexString(remoteVa));
            }
            int rkey = keys.removeInt();
            if (keys.isEmpty()) {
                s.toUnpin.remove(new RemoteBuffer(target.id(), remoteVa, length));
            }
            messages.request(ctx, initiator, target, UNPIN_HANDLER, rkey, 0, 0, 0);
        }
    }

    /** Distinct pages the rank holds pinned: its local pin cache and the ranges it pinned for peers. */
    @Override
    public long pinnedBytes(Endpoint rank) {
        RankState s = states.get(rank);
        return s == null ? 0 : s.pinner.pinnedBytes();
    }

    /** Hits and misses of the target-side handshakes over the job. */
    @Override
    public long count(Metric metric) {
        if (hits == null) {
            return NOT_COUNTED;
        }
        return switch (metric) {
            case HITS -> hits.value();
            case MISSES -> misses.value();
            default -> NOT_COUNTED;
        };
    }

    @Override
    public void reset(Metric metric) {
        if (hits != null && metric == Metric.HITS) {
            hits.reset();
        } else if (hits != null && metric == Metric.MISSES) {
            misses.reset();
        }
    }

    /** Every remote operation of a rendezvous policy hand-shakes with its target. */
    @Override
    public long count(Metric metric, Endpoint initiator) {
        if (metric != Metric.HANDSHAKES) {
            return NOT_COUNTED;
        }
        RankState s = states.get(initiator);
        return s == null ? 0 : s.handshakes;
    }

    /** The local pin cache of {@code rank} (its hits, misses and evictions). */
    public LocalPinCache localCache(Endpoint rank) {
        return state(rank).localCache;
    }

    /** Ranges {@code rank} holds pinned for its peers now. */
    public int rangesPinnedForPeers(Endpoint rank) {
        return state(rank).pinnedForPeers.size();
    }

    private RankState state(Endpoint rank) {
        RankState s = states.get(rank);
        if (s == null) {
            throw new IllegalStateException("rank " + rank.id() + " was not set up by " + name());
        }
        return s;
    }
}
