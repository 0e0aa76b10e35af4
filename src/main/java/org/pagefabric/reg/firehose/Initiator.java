package org.pagefabric.reg.firehose;

import java.util.ArrayList;
import java.util.List;
import org.pagefabric.endpoint.ActiveMessages;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;

/**
 * One rank's side of Firehose as the initiator of remote operations (004 §3.2, steps 1-4): its
 * firehose table, and the move protocol that runs on a miss.
 *
 * <p>An operation first takes every firehose it finds for the remote buckets it touches (a
 * firehose hit needs nothing more: the put is one-sided). For the others it maps unused
 * firehoses first, then moves the least recently used idle ones, and sends the target a move
 * request: the buckets the moved firehoses leave, then the buckets they take. The new firehoses
 * are pending until the reply confirms the pins, and an operation that finds a pending firehose
 * waits for that reply instead of moving another one. When every firehose to the target is in
 * use, the operation waits until one is released.
 */
final class Initiator {
    private final Endpoint rank;
    private final FirehoseTable table;
    private final ActiveMessages messages;
    private final int moveHandler;
    private final long bookkeepingPs;
    private final FirehoseCounters counters;
    private Completion freed = new Completion("firehose.freed");
    private int freedWaiters;
    private long missCount;

    /**
     * @param moveHandler   the active-message handler that serves move requests
     * @param bookkeepingPs time to build the firehose list and update the table on a miss
     */
    Initiator(Endpoint rank, FirehoseTable table, ActiveMessages messages, int moveHandler, long bookkeepingPs,
              FirehoseCounters counters) {
        this.rank = rank;
        this.table = table;
        this.messages = messages;
        this.moveHandler = moveHandler;
        this.bookkeepingPs = bookkeepingPs;
        this.counters = counters;
    }

    /** The firehose table. */
    FirehoseTable table() {
        return table;
    }

    /** Operations of this rank that needed a firehose move, so far. */
    long misses() {
        return missCount;
    }

    /**
     * Firehoses for buckets {@code [first, last]} of {@code target}, with this operation's
     * reference on each, moving firehoses if needed; returns once all are attached.
     *
     * @return whether it was a hit (no move by this operation)
     */
    boolean acquire(ProcessContext ctx, Endpoint target, int first, int last) {
        int node = target.id();
        int span = last - first + 1;
        if (span > table.perNode()) {
            throw new IllegalArgumentException("an operation over " + span + " buckets needs more than the F = "
                    + table.perNode() + " firehoses rank " + rank.id() + " owns to rank " + node);
        }
        List<Completion> waits = null;
        int[] missing = null;
        int misses = 0;
        for (int b = first; b <= last; b++) {
            int slot = table.find(node, b);
            if (slot >= 0) {
                table.acquire(slot);
                if (table.moving(slot) != null) {
                    waits = add(waits, table.moving(slot));
                }
            } else {
                if (missing == null) {
                    missing = new int[span];
                }
                missing[misses++] = b;
            }
        }
        // Not enough firehoses: wait for releases; meanwhile others may have mapped what was missing.
        while (misses > 0 && table.available(node) < misses) {
            freedWaiters++;
            ctx.await(freed);
            int still = 0;
            for (int i = 0; i < misses; i++) {
                int slot = table.find(node, missing[i]);
                if (slot >= 0) {
                    table.acquire(slot);
                    if (table.moving(slot) != null) {
                        waits = add(waits, table.moving(slot));
                    }
                } else {
                    missing[still++] = missing[i];
                }
            }
            misses = still;
        }
        boolean hit = misses == 0;
        if (hit) {
            counters.hits().increment();
        } else {
            counters.misses().increment();
            missCount++;
            move(ctx, target, missing, misses);
        }
        if (waits != null) {
            for (Completion c : waits) {
                counters.pendingWaits().increment();
                ctx.await(c);
            }
        }
        return hit;
    }

    /**
     * Maps firehoses to the {@code n} missing buckets (ascending) and has the target pin them:
     * unused firehoses first, then the idle ones used least recently, whose buckets the target
     * releases first (unpin before pin).
     */
    private void move(ProcessContext ctx, Endpoint target, int[] missing, int n) {
        int node = target.id();
        int victims = Math.max(0, n - table.unused(node));
        int[] released = new int[victims];
        for (int i = 0; i < victims; i++) {
            released[i] = table.detachOldest(node);
        }
        counters.detaches().add(victims);
        Completion done = new Completion("firehose.move");
        int[] slots = new int[n];
        for (int i = 0; i < n; i++) {
            slots[i] = table.attach(node, missing[i], done);
        }
        long start = ctx.now();
        ctx.sleep(bookkeepingPs);
        counters.bookkeeping().record(Time.toMicros(ctx.now() - start));
        long[] runs = new long[victims + n];
        int count = MoveRuns.append(released, victims, true, runs, 0);
        count = MoveRuns.append(missing, n, false, runs, count);
        for (int at = 0; at < count; at += MoveRuns.PER_MESSAGE) {
            counters.moves().increment();
            long sent = ctx.now();
            messages.request(ctx, rank, target, moveHandler, arg(runs, count, at), arg(runs, count, at + 1),
                    arg(runs, count, at + 2), arg(runs, count, at + 3));
            counters.moveRequest().record(Time.toMicros(ctx.now() - sent));
        }
        counters.moveTime().record(Time.toMicros(ctx.now() - start));
        for (int slot : slots) {
            table.settle(slot);
        }
        done.complete();
    }

    private static long arg(long[] runs, int count, int i) {
        return i < count ? runs[i] : 0;
    }

    /** Drops an operation's references on the firehoses of buckets {@code [first, last]} of {@code target}. */
    void release(Endpoint target, int first, int last) {
        boolean idle = false;
        for (int b = first; b <= last; b++) {
            int slot = table.find(target.id(), b);
            if (slot < 0) {
                throw new IllegalStateException("rank " + rank.id() + " has no firehose to bucket " + b + " of rank "
                        + target.id() + " to release");
            }
            idle |= table.release(slot);
        }
        if (idle && freedWaiters > 0) {
            Completion c = freed;
            freed = new Completion("firehose.freed");
            freedWaiters = 0;
            c.complete();
        }
    }

    private static List<Completion> add(List<Completion> list, Completion c) {
        List<Completion> l = list == null ? new ArrayList<>(2) : list;
        if (!l.contains(c)) {
            l.add(c);
        }
        return l;
    }
}
