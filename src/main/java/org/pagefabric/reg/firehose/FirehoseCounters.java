package org.pagefabric.reg.firehose;

import java.util.List;
import org.pagefabric.reg.Statistic;
import org.pagefabric.sim.stat.Accumulator;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.StatisticsRegistry;

/**
 * What Firehose did, summed over the ranks of a run, as statistics named {@code firehose.*}.
 *
 * @param hits         remote operations whose buckets all had firehoses (one-sided at once)
 * @param misses       remote operations that needed a firehose move
 * @param moves        move requests sent (active messages; a large move may take several)
 * @param pins         buckets pinned, for firehoses or local operations
 * @param unpins       buckets unpinned, from the victim FIFO's tail
 * @param fifoReuses   buckets taken back from the victim FIFO without pinning
 * @param localHits    local operations whose buckets were all pinned
 * @param localMisses  local operations that pinned a bucket
 * @param pendingWaits operations that waited for a move or pin another operation had started
 * @param moveTime     per miss, microseconds at the requester from finding the miss to the last
 *                     move reply: bookkeeping, active messages and the remote handler
 * @param moveRequest  per move request, microseconds from sending it to its reply
 * @param moveHandler  per move request, microseconds the remote handler took (unpins, pins, waits)
 * @param moveFifoOnly per move request that pinned nothing (all buckets already pinned or revived
 *                     from the victim FIFO), the handler's microseconds
 * @param pinDelay     per move request that pinned, the handler's microseconds beyond a pinless
 *                     move's fixed work, per bucket pinned
 * @param bookkeeping  per miss, microseconds of requester bookkeeping
 * @param unpinTime    per deregistration (one victim, or a run of adjacent victims unpinned
 *                     together), microseconds of deregistration and unpinning
 * @param unpinMoves   move requests whose handler had to unpin a bucket
 * @param detaches     firehoses a miss moved away from the bucket they mapped (victims), as
 *                     opposed to attaching firehoses that were free
 */
public record FirehoseCounters(Counter hits, Counter misses, Counter moves, Counter pins, Counter unpins,
        Counter fifoReuses, Counter localHits, Counter localMisses, Counter pendingWaits, Accumulator moveTime,
        Accumulator moveRequest, Accumulator moveHandler, Accumulator moveFifoOnly, Accumulator pinDelay,
        Accumulator bookkeeping, Accumulator unpinTime, Counter unpinMoves, Counter detaches) {
    private static final Statistic HITS = new Statistic("firehose.hits", "operations",
            "remote operations whose buckets all had firehoses");
    private static final Statistic MISSES = new Statistic("firehose.misses", "operations",
            "remote operations that needed a firehose move");
    private static final Statistic MOVES = new Statistic("firehose.moves", "messages",
            "firehose move requests sent");
    private static final Statistic PINS = new Statistic("firehose.pins", "buckets",
            "buckets pinned");
    private static final Statistic UNPINS = new Statistic("firehose.unpins", "buckets",
            "buckets unpinned");
    private static final Statistic FIFO_REUSES = new Statistic("firehose.fifo_reuses", "buckets",
            "buckets taken back from the victim FIFO unpinned");
    private static final Statistic LOCAL_HITS = new Statistic("firehose.local_hits", "operations",
            "local operations whose buckets were all pinned");
    private static final Statistic LOCAL_MISSES = new Statistic("firehose.local_misses", "operations",
            "local operations that pinned a bucket");
    private static final Statistic PENDING_WAITS = new Statistic("firehose.pending_waits", "operations",
            "operations that waited for a move or pin another had started");
    private static final Statistic MOVE_TIME = new Statistic("firehose.move_time", "us",
            "per miss: requester time from the miss to the last move reply");
    private static final Statistic MOVE_REQUEST = new Statistic("firehose.move_request", "us",
            "per move request: active-message round trip with the handler");
    private static final Statistic MOVE_HANDLER = new Statistic("firehose.move_handler", "us",
            "per move request: time in the remote move handler");
    private static final Statistic MOVE_FIFO_ONLY = new Statistic("firehose.move_fifo_only", "us",
            "per move request that pinned nothing: time in the remote move handler");
    private static final Statistic PIN_DELAY = new Statistic("firehose.pin_delay", "us",
            "per move request that pinned: handler time beyond its fixed work, per bucket pinned");
    private static final Statistic BOOKKEEPING = new Statistic("firehose.bookkeeping", "us",
            "per miss: requester bookkeeping");
    private static final Statistic UNPIN_TIME = new Statistic("firehose.unpin_time", "us",
            "per deregistration (a victim or a run of adjacent victims): deregistration and unpinning");
    private static final Statistic UNPIN_MOVES = new Statistic("firehose.unpin_moves", "messages",
            "move requests whose handler had to unpin a bucket");
    private static final Statistic DETACHES = new Statistic("firehose.detaches", "firehoses",
            "firehoses moved away from a mapped bucket by a miss");

    /** Every statistic Firehose publishes, in the order they are declared. */
    static final List<Statistic> STATISTICS = List.of(HITS, MISSES, MOVES, PINS, UNPINS, FIFO_REUSES, LOCAL_HITS,
            LOCAL_MISSES, PENDING_WAITS, MOVE_TIME, MOVE_REQUEST, MOVE_HANDLER, MOVE_FIFO_ONLY, PIN_DELAY, BOOKKEEPING,
            UNPIN_TIME, UNPIN_MOVES, DETACHES);

    /** The counters, declared in {@code stats}. */
    static FirehoseCounters declare(StatisticsRegistry stats) {
        return new FirehoseCounters(counter(stats, HITS),
                counter(stats, MISSES),
                counter(stats, MOVES),
                counter(stats, PINS),
                counter(stats, UNPINS),
                counter(stats, FIFO_REUSES),
                counter(stats, LOCAL_HITS),
                counter(stats, LOCAL_MISSES),
                counter(stats, PENDING_WAITS),
                accumulator(stats, MOVE_TIME),
                accumulator(stats, MOVE_REQUEST),
                accumulator(stats, MOVE_HANDLER),
                accumulator(stats, MOVE_FIFO_ONLY),
                accumulator(stats, PIN_DELAY),
                accumulator(stats, BOOKKEEPING),
                accumulator(stats, UNPIN_TIME),
                counter(stats, UNPIN_MOVES),
                counter(stats, DETACHES));
    }

    private static Counter counter(StatisticsRegistry stats, Statistic s) {
        return stats.counter(s.name(), s.unit(), s.description());
    }

    private static Accumulator accumulator(StatisticsRegistry stats, Statistic s) {
        return stats.accumulator(s.name(), s.unit(), s.description());
    }
}
