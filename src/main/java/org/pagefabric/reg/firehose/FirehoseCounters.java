package org.pagefabric.reg.firehose;

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
 * @param unpinTime    per bucket unpinned, microseconds (deregistration and unpinning)
 * @param unpinMoves   move requests whose handler had to unpin a bucket
 * @param detaches     firehoses a miss moved away from the bucket they mapped (victims), as
 *                     opposed to attaching firehoses that were free
 */
public record FirehoseCounters(Counter hits, Counter misses, Counter moves, Counter pins, Counter unpins,
        Counter fifoReuses, Counter localHits, Counter localMisses, Counter pendingWaits, Accumulator moveTime,
        Accumulator moveRequest, Accumulator moveHandler, Accumulator moveFifoOnly, Accumulator pinDelay,
        Accumulator bookkeeping, Accumulator unpinTime, Counter unpinMoves, Counter detaches) {
    /** The counters, declared in {@code stats}. */
    static FirehoseCounters declare(StatisticsRegistry stats) {
        return new FirehoseCounters(
                stats.counter("firehose.hits", "operations", "remote operations whose buckets all had firehoses"),
                stats.counter("firehose.misses", "operations", "remote operations that needed a firehose move"),
                stats.counter("firehose.moves", "messages", "firehose move requests sent"),
                stats.counter("firehose.pins", "buckets", "buckets pinned"),
                stats.counter("firehose.unpins", "buckets", "buckets unpinned"),
                stats.counter("firehose.fifo_reuses", "buckets", "buckets taken back from the victim FIFO unpinned"),
                stats.counter("firehose.local_hits", "operations", "local operations whose buckets were all pinned"),
                stats.counter("firehose.local_misses", "operations", "local operations that pinned a bucket"),
                stats.counter("firehose.pending_waits", "operations",
                        "operations that waited for a move or pin another had started"),
                stats.accumulator("firehose.move_time", "us", "per miss: requester time from the miss to the last move reply"),
                stats.accumulator("firehose.move_request", "us", "per move request: active-message round trip with the handler"),
                stats.accumulator("firehose.move_handler", "us", "per move request: time in the remote move handler"),
                stats.accumulator("firehose.move_fifo_only", "us",
                        "per move request that pinned nothing: time in the remote move handler"),
                stats.accumulator("firehose.pin_delay", "us",
                        "per move request that pinned: handler time beyond its fixed work, per bucket pinned"),
                stats.accumulator("firehose.bookkeeping", "us", "per miss: requester bookkeeping"),
                stats.accumulator("firehose.unpin_time", "us", "per bucket unpinned: deregistration and unpinning"),
                stats.counter("firehose.unpin_moves", "messages", "move requests whose handler had to unpin a bucket"),
                stats.counter("firehose.detaches", "firehoses", "firehoses moved away from a mapped bucket by a miss"));
    }
}
