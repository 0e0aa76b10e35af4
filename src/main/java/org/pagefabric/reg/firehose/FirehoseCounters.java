package org.pagefabric.reg.firehose;

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
 */
public record FirehoseCounters(Counter hits, Counter misses, Counter moves, Counter pins, Counter unpins,
        Counter fifoReuses, Counter localHits, Counter localMisses, Counter pendingWaits) {
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
                        "operations that waited for a move or pin another had started"));
    }
}
