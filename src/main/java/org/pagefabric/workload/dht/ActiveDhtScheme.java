package org.pagefabric.workload.dht;

import org.pagefabric.active.Actions;
import org.pagefabric.active.ActiveAccess;
import org.pagefabric.active.ActiveChannel;
import org.pagefabric.active.ActiveDomain;
import org.pagefabric.active.Notification;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.iommu.aa.AccessRecord;
import org.pagefabric.hw.os.MapFlags;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.stat.Counter;

/**
 * The Active Access hashtable of 002 §4.1 (Listing 3): an insert is one plain put of the element
 * to its cell, {@code v.elems[hash(elem)]}, in the target volume's table. Every hashtable process
 * has its own IUID and access log, and its table's pages are marked W=0 (for the device), WL=1,
 * WLD=1 with that IUID: the target IOMMU logs each put with its data and writes nothing to the
 * table, and the process's handler, run on its node per the notification of the registration
 * policy's {@link ActiveAccess}, performs
 * the insert locally ({@link DhtContext#applyLocally}) with local synchronization only.
 *
 * <p>How a put travels: as one datagram of the hashtable's fabric ({@link org.pagefabric.comm.rma.DatagramRma#message}, one remote access per insert, the same
 * network, NIC posting and DMA costs as the baselines' messages), and on reaching the target
 * node's host it enters the node's IOMMU through {@link ActiveChannel#ingressPut}: translation
 * (IOTLB, walk), the PTE's bits, the access log, backpressure when the log is full, and the
 * notification all happen in the modelled hardware. Connections per process pair, which 1024
 * processes could not afford, are avoided; the IOMMU logging is not replaced by a cost.
 *
 * <p>Where handlers run: the drain's cost (reading each entry, the handler's local insert) is
 * taken from the core of the volume's owner ({@link DhtContext#stealCore}), plus the interrupt's
 * cost for {@code aa-int}; the owner's inserting waits for it, as a core does one thing at a
 * time. The polling variants notice entries after one check of the tail (memory for
 * {@code aa-poll}, the scratchpad for {@code aa-sp}). Once every process has issued its
 * inserts, entries below an interrupt batch are processed at once (the end of the run).
 */
final class ActiveDhtScheme implements DhtScheme {
    // a cell is an element word and a next-pointer word (Listing 2: elems[pos].elem and .ptr)
    private static final int CELL_BYTES = 16;

    private DhtContext dht;
    private ActiveChannel channel;
    private ActiveDomain[] domains;
    private int[] owners;
    private long[] tableBase;
    private long[] cursor;
    private boolean allIssued;
    private Counter misrouted;

    @Override
    public void setUp(DhtContext dht) {
        this.dht = dht;
        int n = dht.ranks();
        this.channel = new ActiveChannel(dht.cluster(), dht.profile());
        this.domains = new ActiveDomain[n];
        this.owners = new int[n];
        this.tableBase = new long[n];
        this.cursor = new long[n];
        this.misrouted = dht.simulator().statistics().counter("dht_aa.misrouted", "entries",
                "logged inserts whose element belongs to another volume than the handler's");
        ActiveAccess aa = dht.activeAccess();
        long table = tableCells(dht);
        for (int r = 0; r < n; r++) {
            Rank rank = dht.rankOn(dht.nodeOf(r));
            ActiveDomain d = rank.newActiveDomain(aa, true);
            long bytes = table * CELL_BYTES;
            long base = rank.memory().mmap(0, bytes, Prot.READ_WRITE, MapFlags.POPULATE).address();
            int owner = r;
            d.assocRange(base, bytes, Actions.PUT_DATA, rec -> handle(owner, rec));
            d.onDrained((dom, entries, cost) -> drained(owner, dom, entries, cost));
            // each process's interrupt reaches its own core: 32 processes' interrupts on core 0 would
            // make one core the node's bottleneck, which no interrupt-driven runtime accepts
            d.routeInterruptsTo(dht.coreOf(r));
            domains[r] = d;
            owners[r] = channel.register(d, dht.nodeOf(r));
            tableBase[r] = base;
        }
    }

    private static long tableCells(DhtContext dht) {
        long max = 0;
        for (int r = 0; r < dht.ranks(); r++) {
            max = Math.max(max, dht.volume(r).tableCells());
        }
        return max;
    }

    @Override
    public void insert(ProcessContext ctx, int rank, int target, long elem) {
        dht.fabric().message(ctx, rank, target, elem);
    }

    @Override
    public void onMessage(int source, int target, long elem) {
        long va = tableBase[target] + DhtHash.position(elem) * CELL_BYTES;
        channel.ingressPut(dht.nodeOf(target), owners[target], va, elem, dht.elementBytes(), dht.nodeOf(source));
    }

    @Override
    public void allIssued() {
        allIssued = true;
        for (ActiveDomain d : domains) {
            d.setInterruptBatch(1);
            d.kick();
        }
    }

    /** Listing 3's insert_handler for one logged put: the local insert, on the owner's node. */
    private long handle(int owner, AccessRecord rec) {
        long elem = rec.word(0);
        if (DhtHash.owner(elem) != owner) {
            misrouted.increment();
            return 0;
        }
        long at = Math.max(dht.simulator().now(), cursor[owner]);
        long cost = dht.applyLocally(elem, dht.coreOf(owner), at);
        cursor[owner] = at + cost;
        return cost;
    }

    private void drained(int owner, ActiveDomain d, int entries, long costPs) {
        if (entries == 0) {
            return;
        }
        long cost = costPs + (d.notification() == Notification.INTERRUPT ? dht.costs().interruptPs() : 0);
        dht.stealCore(owner, cost);
        if (allIssued) {
            d.kick(); // entries that arrived during the drain
        }
    }

    /** The domain of hashtable process {@code rank}. */
    ActiveDomain domain(int rank) {
        return domains[rank];
    }

    /** The channel the puts enter their IOMMUs through. */
    ActiveChannel channel() {
        return channel;
    }

    /** Logged inserts that reached a handler of the wrong volume (must stay 0). */
    long misrouted() {
        return misrouted.value();
    }
}
