package org.pagefabric.reg.firehose;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;

/**
 * One rank's side of Firehose as the owner of its memory: the local bucket table, the pins it
 * decides, and the waits between the processes that touch it (the rank's own operations and the
 * active-message handler serving other nodes' moves).
 *
 * <p>A reference is taken on every bucket of a range in one step, without suspending, so that no
 * other process sees half of it: buckets already pinned are referenced (and leave the victim
 * FIFO if they were there), the others are marked pending and pinned, each after evicting the
 * FIFO's oldest bucket if the node is at M + MAXVICTIM. Then the caller's process spends the
 * time those pins and unpins took, the pins finish, and it waits for any bucket another process
 * was pinning. Dropping the last reference puts a bucket at the FIFO's head; trimming a FIFO
 * longer than MAXVICTIM unpins its tail.
 */
final class LocalBuckets {
    private final BucketTable table;
    private final BucketPins pins;
    private final FirehoseCounters counters;
    private final long limitBytes;
    /** The pin in progress of each pending bucket, for those who need it finished. */
    private final Completion[] pinning;
    /** Named for deadlock reports: a process that waits here with nobody to release has too much in flight. */
    private static final String LOCAL_ROOM = "firehose.local_room (local buffers in flight fill MAXVICTIM)";
    private Completion localRoom = new Completion(LOCAL_ROOM);
    private int localRoomWaiters;

    /**
     * @param limitBytes M + MAXVICTIM, the hard limit on pinned bytes
     */
    LocalBuckets(BucketTable table, BucketPins pins, FirehoseCounters counters, long limitBytes) {
        if (table.buckets() != pins.buckets()) {
            throw new IllegalArgumentException(table.buckets() + " table entries for " + pins.buckets() + " buckets");
        }
        this.table = table;
        this.pins = pins;
        this.counters = counters;
        this.limitBytes = limitBytes;
        this.pinning = new Completion[table.buckets()];
    }

    /** The bucket table. */
    BucketTable table() {
        return table;
    }

    /** The pins. */
    BucketPins pins() {
        return pins;
    }

    /** Pins and waits gathered while referencing the buckets of one request. */
    private long unpinned;

    static final class Batch {
        private int[] begun;
        private int begunCount;
        private List<Completion> waits;
        private long costPs;
        /** The victim this batch unpinned last, -1 before the first. */
        private int lastVictim = -1;
        /** Time of the deregistration the last victim belongs to, picoseconds. */
        private long runPs;

        /** Buckets this batch pinned. */
        int pinned() {
            return begunCount;
        }

        /** Adds time the batch's work took. */
        void spend(long ps) {
            costPs += ps;
        }

        private void begun(int b) {
            if (begun == null) {
                begun = new int[4];
            } else if (begunCount == begun.length) {
                begun = Arrays.copyOf(begun, begunCount * 2);
            }
            begun[begunCount++] = b;
        }

        private void await(Completion c) {
            if (waits == null) {
                waits = new ArrayList<>(2);
            }
            waits.add(c);
        }
    }

    /**
     * A local operation's references on {@code [first, last]}: waits, if local operations
     * already reference MAXVICTIM, until some complete; then references, pins and waits as the
     * class comment says.
     *
     * @return whether any bucket had to be pinned
     * @throws IllegalArgumentException if the range alone holds more buckets than MAXVICTIM
     */
    boolean referenceLocal(ProcessContext ctx, int first, int last) {
        while (true) {
            int need = 0;
            for (int b = first; b <= last; b++) {
                need += table.localRefs(b) == 0 ? 1 : 0;
            }
            if (need > table.localLimit()) {
                throw new IllegalArgumentException("a local buffer of " + need + " buckets exceeds MAXVICTIM ("
                        + table.localLimit() + " buckets), the space Firehose guarantees to local pins");
            }
            if (table.localBuckets() + need <= table.localLimit()) {
                break;
            }
            localRoomWaiters++;
            ctx.await(localRoom);
        }
        Batch batch = new Batch();
        for (int b = first; b <= last; b++) {
            take(b, false, batch);
        }
        finish(ctx, batch);
        return batch.pinned() > 0;
    }

    /**
     * References bucket {@code b} for a local operation or a remote firehose, pinning it if it
     * is not pinned; the time goes to {@code batch}.
     */
    void take(int b, boolean remote, Batch batch) {
        byte state = table.state(b);
        if (state != BucketTable.UNPINNED) {
            if (table.acquire(b, remote)) {
                counters.fifoReuses().increment();
            }
            if (state == BucketTable.PENDING) {
                batch.await(pinning[b]);
            }
            return;
        }
        // The node is at M + MAXVICTIM: a victim makes room (unpin before pin).
        while (table.full()) {
            int victim = table.evictOldest();
            if (victim < 0) {
                throw new IllegalStateException("no unreferenced bucket to unpin for bucket " + b + ": "
                        + table.pinned() + " buckets pinned, all in use");
            }
            unpin(victim, batch);
        }
        table.beginPin(b, remote);
        batch.spend(pins.pin(b));
        counters.pins().increment();
        pinning[b] = new Completion("firehose.pin");
        batch.begun(b);
        checkBytes();
    }

    /** Spends the batch's time, finishes its pins and waits for those other processes started. */
    void finish(ProcessContext ctx, Batch batch) {
        closeRun(batch);
        if (batch.costPs > 0) {
            ctx.sleep(batch.costPs);
        }
        for (int i = 0; i < batch.begunCount; i++) {
            int b = batch.begun[i];
            table.finishPin(b);
            Completion c = pinning[b];
            pinning[b] = null;
            c.complete();
        }
        if (batch.waits != null) {
            for (Completion c : batch.waits) {
                counters.pendingWaits().increment();
                ctx.await(c);
            }
        }
        table.checkBounds();
    }

    /**
     * Drops a reference on bucket {@code b}; a bucket left unreferenced joins the victim FIFO
     * and stays pinned. The FIFO is not trimmed here: see {@link #trim(Batch)}.
     */
    void drop(int b, boolean remote) {
        boolean lastLocal = !remote && table.localRefs(b) == 1;
        table.release(b, remote);
        if (lastLocal && localRoomWaiters > 0) {
            Completion c = localRoom;
            localRoom = new Completion(LOCAL_ROOM);
            localRoomWaiters = 0;
            c.complete();
        }
    }

    /**
     * Unpins the victim FIFO's tail while the FIFO holds more than MAXVICTIM, into
     * {@code batch}'s time.
     */
    void trim(Batch batch) {
        while (table.fifoOverLimit()) {
            unpin(table.evictOldest(), batch);
        }
    }

    /** Releases a local operation's references on {@code [first, last]} and spends the unpinning time. */
    void releaseLocal(ProcessContext ctx, int first, int last) {
        for (int b = first; b <= last; b++) {
            drop(b, false);
        }
        if (table.fifoOverLimit()) {
            Batch batch = new Batch();
            trim(batch);
            closeRun(batch);
            ctx.sleep(batch.costPs);
        }
        table.checkBounds();
    }

    /**
     * Unpins victim {@code b}. Victims evicted one after another whose buckets follow each other
     * form one region for the driver, deregistered by one call (the GM conduit of GASNet walks
     * its victim FIFO from the tail "always trying to find contiguous buckets in order to
     * minimize deregistration overhead"), so only the first of a run pays the per-call cost.
     */
    private void unpin(int b, Batch batch) {
        counters.unpins().increment();
        unpinned++;
        boolean continues = batch.lastVictim >= 0 && b == batch.lastVictim + 1;
        if (!continues) {
            closeRun(batch);
        }
        long ps = pins.unpin(b, continues);
        batch.lastVictim = b;
        batch.runPs += ps;
        batch.spend(ps);
    }

    /** Records the time of the deregistration the batch's last victims formed, if any. */
    private void closeRun(Batch batch) {
        if (batch.runPs > 0) {
            counters.unpinTime().record(Time.toMicros(batch.runPs));
            batch.runPs = 0;
        }
    }

    /** Buckets this node has unpinned so far. */
    long unpinned() {
        return unpinned;
    }

    private void checkBytes() {
        if (pins.pinnedBytes() > limitBytes) {
            throw new IllegalStateException(pins.pinnedBytes() + " B pinned, above M + MAXVICTIM = " + limitBytes + " B");
        }
    }
}
