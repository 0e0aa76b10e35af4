package org.pagefabric.reg.am;

import org.agrona.collections.LongArrayQueue;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.workload.dht.DhtContext;
import org.pagefabric.workload.dht.DhtCosts;
import org.pagefabric.workload.dht.DhtScheme;

/**
 * AM-Ints (002 §5.2): the NIC interrupts the volume owner's core once every
 * {@code am.interrupt.batch} messages have arrived for it; the interrupt handler runs the local
 * inserts of the batch. The core does one thing at a time, so the owner's own inserting waits
 * for the handler. Once every process has issued its inserts, messages left below a batch
 * interrupt at once (the end of the run flushes them).
 */
final class InterruptAmScheme implements DhtScheme {
    /** The queues' null value: an element is never 0 ({@link org.pagefabric.workload.dht.DhtHash}). */
    private static final long NO_ELEMENT = 0;
    private DhtContext dht;
    private DhtCosts costs;
    private LongArrayQueue[] pending;
    private boolean draining;
    private long interrupts;

    @Override
    public void setUp(DhtContext dht) {
        this.dht = dht;
        this.costs = dht.costs();
        pending = new LongArrayQueue[dht.ranks()];
        for (int r = 0; r < pending.length; r++) {
            pending[r] = new LongArrayQueue(LongArrayQueue.MIN_CAPACITY, NO_ELEMENT);
        }
    }

    @Override
    public void insert(ProcessContext ctx, int rank, int target, long elem) {
        dht.fabric().message(ctx, rank, target, elem);
    }

    @Override
    public void onMessage(int source, int target, long elem) {
        pending[target].addLong(elem);
        if (draining || pending[target].size() >= costs.interruptBatch()) {
            interrupt(target);
        }
    }

    @Override
    public void allIssued() {
        draining = true;
        for (int r = 0; r < pending.length; r++) {
            if (!pending[r].isEmpty()) {
                interrupt(r);
            }
        }
    }

    private void interrupt(int rank) {
        interrupts++;
        long start = dht.coreFreeAt(rank);
        long cost = costs.interruptPs();
        LongArrayQueue q = pending[rank];
        while (!q.isEmpty()) {
            cost += costs.amExtractPs();
            cost += dht.applyLocally(q.removeLong(), dht.coreOf(rank), start + cost);
        }
        dht.stealCore(rank, cost);
    }

    /** Interrupts raised so far. */
    long interrupts() {
        return interrupts;
    }
}
