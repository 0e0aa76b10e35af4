package org.pagefabric.workload.dht;

import org.agrona.collections.LongArrayQueue;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.workload.rma.RmaCosts;

/**
 * Active messages handled by the computing processes themselves (002 §5.2: AM and AM-Exp). An
 * insert is one message to the volume's owner; the owner finds it when it next polls its receive
 * buffer, extracts the payload ({@link RmaCosts#amExtractPs}) and runs the handler (the local
 * insert): 002 §5.2.1 names both as what the computing processes pay in AM and not in AA. AM polls every {@code am.poll_interval};
 * AM-Exp doubles the interval after an empty poll, up to {@code am.backoff.max_interval}, and
 * returns to the shortest one when a poll finds messages. Processes that have finished their
 * own inserts keep polling until every element is applied.
 */
final class PollingAmScheme implements DhtScheme {
    /** The queues' null value: an element is never 0 ({@link org.pagefabric.workload.dht.DhtHash}). */
    private static final long NO_ELEMENT = 0;
    private final boolean backoff;
    private DhtContext dht;
    private RmaCosts costs;
    private LongArrayQueue[] inbox;
    private long[] nextPoll;
    private long[] interval;
    private long longestInterval;
    private org.pagefabric.sim.stat.Counter polls;
    private org.pagefabric.sim.stat.Counter emptyPolls;
    private org.pagefabric.sim.stat.Counter doublings;

    PollingAmScheme(boolean backoff) {
        this.backoff = backoff;
    }

    @Override
    public void setUp(DhtContext dht) {
        this.dht = dht;
        this.costs = dht.costs();
        int n = dht.ranks();
        inbox = new LongArrayQueue[n];
        nextPoll = new long[n];
        interval = new long[n];
        for (int r = 0; r < n; r++) {
            inbox[r] = new LongArrayQueue(LongArrayQueue.MIN_CAPACITY, NO_ELEMENT);
            interval[r] = costs.pollIntervalPs();
            nextPoll[r] = interval[r];
        }
        longestInterval = costs.pollIntervalPs();
        var stats = dht.simulator().statistics();
        polls = stats.counter("dht_am.polls", "polls", "polls of a receive buffer by computing processes");
        emptyPolls = stats.counter("dht_am.emptyPolls", "polls", "polls that found no message");
        doublings = stats.counter("dht_am.backoffDoublings", "times", "polling intervals doubled after an empty poll");
    }

    @Override
    public void insert(ProcessContext ctx, int rank, int target, long elem) {
        if (ctx.now() >= nextPoll[rank]) {
            poll(ctx, rank);
        }
        dht.fabric().message(ctx, rank, target, elem);
    }

    @Override
    public void finish(ProcessContext ctx, int rank) {
        while (!dht.allApplied().isDone() && !dht.lostForGood(ctx.now())) {
            pollWhenDue(ctx, rank);
        }
    }

    /**
     * One step of the loop after the last insert, a method of its own: the loop's frame, entered
     * once per process, stays interpreted until on-stack replacement reaches it, while this
     * method is compiled from its calls.
     */
    private void pollWhenDue(ProcessContext ctx, int rank) {
        if (nextPoll[rank] > ctx.now()) {
            ctx.sleep(nextPoll[rank] - ctx.now());
        }
        poll(ctx, rank);
    }

    @Override
    public void onMessage(int source, int target, long elem) {
        inbox[target].addLong(elem);
    }

    private void poll(ProcessContext ctx, int rank) {
        polls.increment();
        long now = ctx.now();
        long cost = costs.pollPs();
        int handled = 0;
        LongArrayQueue q = inbox[rank];
        while (!q.isEmpty()) {
            cost += costs.amExtractPs();
            cost += dht.applyLocally(q.removeLong(), dht.coreOf(rank), now + cost);
            handled++;
        }
        if (handled == 0) {
            emptyPolls.increment();
        }
        ctx.sleep(cost);
        if (backoff) {
            long next = handled == 0 ? Math.min(interval[rank] * 2, costs.backoffMaxPs()) : costs.pollIntervalPs();
            if (next > interval[rank]) {
                doublings.increment();
            }
            interval[rank] = next;
            longestInterval = Math.max(longestInterval, interval[rank]);
        }
        nextPoll[rank] = ctx.now() + interval[rank];
    }

    /** The longest polling interval any process reached, picoseconds. */
    long longestInterval() {
        return longestInterval;
    }
}
