package org.pagefabric.reg.firehose;

import java.util.ArrayList;
import java.util.List;
import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.ActiveMessages;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.endpoint.JobLayout;
import org.pagefabric.hw.param.NicParameters;
import org.pagefabric.reg.Metric;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.stat.Accumulator;
import org.pagefabric.sim.stat.Counter;

/**
 * Firehose (004 §3.2): every node owns F = M / (B (nodes - 1)) firehoses to every other node, each
 * a handle on one pinned remote bucket, and moves them on demand with an active message, so
 * that a put whose remote buckets are all mapped is one-sided and most registration cost is
 * amortized over many operations.
 *
 * <ul>
 *   <li><b>Initiator</b> ({@link Initiator}): the firehose table, keyed by (node, bucket), with a
 *       reference count per firehose and a FIFO of idle firehoses per node; a miss maps unused
 *       firehoses, then moves idle ones, in one move request per four runs of buckets.
 *   <li><b>Target</b> ({@link LocalBuckets}): the local bucket table with remote and local
 *       reference counts and the bucket victim FIFO. The move handler drops the references of
 *       the buckets the moved firehoses leave, then references or pins the new ones, evicting
 *       the FIFO's oldest bucket when the node is at M + MAXVICTIM, trims the FIFO to MAXVICTIM
 *       (unpinning its tail), and replies.
 *   <li><b>Local operations</b> (sources of puts, destinations of gets) reference their buckets
 *       in the same table, served from the victim FIFO when the bucket is there, and return
 *       them to it when they complete; at most MAXVICTIM is locally referenced at once.
 * </ul>
 *
 * <p>Pinned memory never exceeds M + MAXVICTIM on any node; the tables check it after every
 * change and fail loudly otherwise. The costs are the profile's: kernel pinning, the driver's
 * registration per bucket ({@code nic.register.*}, {@code nic.deregister.*}), the move handler's
 * own work ({@code firehose.move.handler}) and the requester's bookkeeping on a miss
 * ({@code firehose.bookkeeping}); the move request and its reply are real active messages, whose
 * round trip is what the network, the NICs and the messaging layer ({@code am.message_overhead})
 * make of it.
 *
 * <p>Two-sided receives reference their buffers like any local operation, but the rank API does
 * not report their completion to policies, so those references stay until the end of the run.
 */
public final class FirehosePolicy implements RegistrationPolicy {
    /** The command-line name. */
    public static final String NAME = "firehose";
    /** The active-message handler id of move requests (Firehose owns ids 30-39). */
    static final int MOVE_HANDLER = 30;

    private final FirehoseConfig config;
    private final PinCosts pinCosts;
    private final long moveHandlerPs;
    private final long bookkeepingPs;
    private final boolean dontfork;
    private final boolean dofork;
    private final List<LocalBuckets> locals = new ArrayList<>();
    private final List<Initiator> initiators = new ArrayList<>();
    private FirehoseCounters counters;

    /** The policy with its tunables and costs from {@code profile}. */
    public FirehosePolicy(Profile profile) {
        this.config = FirehoseConfig.of(profile);
        this.pinCosts = PinCosts.of(profile);
        this.moveHandlerPs = profile.time(FirehoseParameters.MOVE_HANDLER);
        this.bookkeepingPs = profile.time(FirehoseParameters.BOOKKEEPING);
        this.dontfork = profile.flag(NicParameters.REGISTER_DONTFORK);
        this.dofork = profile.flag(NicParameters.DEREGISTER_DOFORK);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** M, MAXVICTIM and the bucket size in use. */
    public FirehoseConfig config() {
        return config;
    }

    /** The run's counters (null before the first rank is set up). */
    public FirehoseCounters counters() {
        return counters;
    }

    /** Sets up the rank's bucket table over its segment; nothing is pinned up front. */
    @Override
    public long setUp(Endpoint rank) {
        if (counters == null) {
            counters = FirehoseCounters.declare(rank.node().simulator().statistics());
        }
        BucketPins pins = new BucketPins(rank, config.bucketBytes(), pinCosts, dontfork, dofork);
        BucketTable table = new BucketTable(pins.buckets(), config.limitBuckets(), config.victimBuckets());
        while (locals.size() <= rank.id()) {
            locals.add(null);
        }
        locals.set(rank.id(), new LocalBuckets(table, pins, counters, config.limitBytes()));
        return 0;
    }

    /** Gives every rank its F firehoses to each other rank and starts the move handlers. */
    @Override
    public void start(JobLayout job) {
        int nodes = job.endpoints().size();
        int perNode = config.firehosesPerNode(nodes);
        ActiveMessages messages = ActiveMessages.attach(job);
        messages.register(MOVE_HANDLER, this::move);
        initiators.clear();
        for (Endpoint r : job.endpoints()) {
            initiators.add(new Initiator(r, new FirehoseTable(nodes, perNode), messages, MOVE_HANDLER, bookkeepingPs,
                    counters));
        }
    }

    @Override
    public Access local(ProcessContext ctx, Endpoint rank, long va, long length) {
        LocalBuckets local = locals.get(rank.id());
        BucketPins pins = local.pins();
        boolean pinned = local.referenceLocal(ctx, pins.bucketOf(va), pins.bucketOf(va + Math.max(length, 1) - 1));
        (pinned ? counters.localMisses() : counters.localHits()).increment();
        return new Access(pins.region().lkey(), 0);
    }

    @Override
    public Access remote(ProcessContext ctx, Endpoint initiator, Endpoint target, long va, long length) {
        if (initiator == target) {
            throw new IllegalArgumentException("rank " + initiator.id() + ": Firehose has no firehoses to its own node");
        }
        BucketPins pins = locals.get(target.id()).pins();
        initiators.get(initiator.id()).acquire(ctx, target, pins.bucketOf(va), pins.bucketOf(va + Math.max(length, 1) - 1));
        return new Access(pins.region().rkey(), 0);
    }

    /** Returns the local buckets to the victim FIFO and the firehoses to their idle FIFO. */
    @Override
    public void completed(ProcessContext ctx, Endpoint initiator, Endpoint target, long localVa, long remoteVa, long length) {
        LocalBuckets local = locals.get(initiator.id());
        BucketPins pins = local.pins();
        long last = Math.max(length, 1) - 1;
        local.releaseLocal(ctx, pins.bucketOf(localVa), pins.bucketOf(localVa + last));
        if (target != null && remoteVa != 0) {
            BucketPins remote = locals.get(target.id()).pins();
            initiators.get(initiator.id()).release(target, remote.bucketOf(remoteVa), remote.bucketOf(remoteVa + last));
        }
    }

    /**
     * The move handler at the target. It drops the references of the buckets the moved
     * firehoses leave first, so they are the first candidates to unpin when a new bucket needs
     * room (unpin before pin); then it references the new buckets, reviving them from the victim
     * FIFO or pinning them; then trims the FIFO to MAXVICTIM. Trimming last means a bucket moved
     * away from and back onto in one request is revived, not unpinned and pinned again. It
     * spends the handler's, pins' and unpins' time and replies with the number of buckets it
     * had to pin.
     */
    private long move(ProcessContext ctx, Endpoint target, Endpoint source, long a0, long a1, long a2, long a3) {
        long start = ctx.now();
        LocalBuckets local = locals.get(target.id());
        long unpinnedBefore = local.unpinned();
        LocalBuckets.Batch batch = new LocalBuckets.Batch();
        batch.spend(moveHandlerPs);
        long[] runs = {a0, a1, a2, a3};
        for (long run : runs) {
            if (MoveRuns.count(run) > 0 && MoveRuns.isRelease(run)) {
                for (int b = MoveRuns.first(run), end = b + MoveRuns.count(run); b < end; b++) {
                    local.drop(b, true);
                }
            }
        }
        for (long run : runs) {
            if (MoveRuns.count(run) > 0 && !MoveRuns.isRelease(run)) {
                for (int b = MoveRuns.first(run), end = b + MoveRuns.count(run); b < end; b++) {
                    local.take(b, true, batch);
                }
            }
        }
        local.trim(batch);
        local.finish(ctx, batch);
        double us = Time.toMicros(ctx.now() - start);
        counters.moveHandler().record(us);
        if (local.unpinned() > unpinnedBefore) {
            counters.unpinMoves().increment();
        }
        if (batch.pinned() == 0) {
            counters.moveFifoOnly().record(us);
        } else {
            counters.pinDelay().record((us - Time.toMicros(moveHandlerPs)) / batch.pinned());
        }
        return batch.pinned();
    }

    /** Hits, misses, moves and their unpins and detaches over the job; handshakes per initiator are its remote operations that needed a move. */
    @Override
    public long count(Metric metric) {
        Counter c = counters == null ? null : counter(metric);
        return c == null ? NOT_COUNTED : c.value();
    }

    /** The move times of {@link FirehoseCounters}, in microseconds. */
    @Override
    public double mean(Metric metric) {
        Accumulator a = counters == null ? null : accumulator(metric);
        return a == null || a.count() == 0 ? Double.NaN : a.mean();
    }

    @Override
    public void reset(Metric metric) {
        if (counters == null) {
            return;
        }
        Counter c = counter(metric);
        if (c != null) {
            c.reset();
        }
        Accumulator a = accumulator(metric);
        if (a != null) {
            a.reset();
        }
    }

    private Counter counter(Metric metric) {
        return switch (metric) {
            case HITS -> counters.hits();
            case MISSES -> counters.misses();
            case MOVES -> counters.moves();
            case UNPIN_MOVES -> counters.unpinMoves();
            case DETACHES -> counters.detaches();
            default -> null;
        };
    }

    private Accumulator accumulator(Metric metric) {
        return switch (metric) {
            case MOVE_TIME -> counters.moveTime();
            case MOVE_ROUND_TRIP -> counters.moveRequest();
            case MOVE_HANDLER_TIME -> counters.moveHandler();
            case PINLESS_MOVE_HANDLER_TIME -> counters.moveFifoOnly();
            case PIN_DELAY -> counters.pinDelay();
            case MISS_BOOKKEEPING -> counters.bookkeeping();
            case UNPIN_TIME -> counters.unpinTime();
            default -> null;
        };
    }

    @Override
    public long count(Metric metric, Endpoint initiator) {
        if (metric != Metric.HANDSHAKES) {
            return NOT_COUNTED;
        }
        return initiator.id() < initiators.size() ? initiators.get(initiator.id()).misses() : 0;
    }

    /** The pins of {@code rank}'s buckets, for tests that reach the NIC directly. */
    BucketPins pins(Endpoint rank) {
        return locals.get(rank.id()).pins();
    }

    @Override
    public long pinnedBytes(Endpoint rank) {
        return rank.id() < locals.size() && locals.get(rank.id()) != null ? locals.get(rank.id()).pins().pinnedBytes() : 0;
    }

    /** The local bucket table of {@code rank}, for audits. */
    BucketTable buckets(Endpoint rank) {
        return locals.get(rank.id()).table();
    }

    /** The firehose table of {@code rank}, for audits. */
    FirehoseTable firehoses(Endpoint rank) {
        return initiators.get(rank.id()).table();
    }
}
