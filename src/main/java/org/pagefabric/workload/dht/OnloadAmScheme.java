package org.pagefabric.workload.dht;

import org.pagefabric.sim.process.ProcessContext;

/**
 * AM-Onload (002 §5.2): on every node the last C cores only run active-message handlers,
 * spinning on their receive flags; the processes on the other cores insert and never handle.
 * The volume of process p is served by handler core {@code core(p) mod C} of p's node, which
 * takes messages in arrival order, one at a time, each a poll that finds it, the payload's
 * extraction and the local insert.
 */
final class OnloadAmScheme implements DhtScheme {
    private DhtContext dht;
    private int handlers;
    private int firstHandler;
    private long[] busyUntil;

    @Override
    public void setUp(DhtContext dht) {
        this.dht = dht;
        this.handlers = (int) dht.onloadCores();
        this.firstHandler = dht.processesPerNode() - handlers;
        this.busyUntil = new long[dht.cluster().size() * handlers];
    }

    @Override
    public boolean usesOnloadCores() {
        return true;
    }

    @Override
    public boolean inserts(int rank) {
        return dht.coreOf(rank) < firstHandler;
    }

    @Override
    public void insert(ProcessContext ctx, int rank, int target, long elem) {
        dht.fabric().message(ctx, rank, target, elem);
    }

    /** An insert is one message, whose post ({@link org.pagefabric.comm.rma.DatagramRma#message}) the process always waits out. */
    @Override
    public long minInsertPs(DhtContext dht) {
        return dht.costs().postPs();
    }

    /**
     * Every unapplied element will occupy one of the nodes x C handler cores for at least its
     * extraction from the message and one memory access (the local insert), starting no earlier
     * than now or that core's current work: the cores' average finishing time bounds the last one.
     */
    @Override
    public long appliedNoEarlierThan(long unapplied) {
        if (unapplied <= 0) {
            return 0;
        }
        long now = dht.simulator().now();
        long sum = 0;
        for (long b : busyUntil) {
            sum += Math.max(now, b);
        }
        long perElement = dht.costs().amExtractPs() + dht.costs().memoryPs();
        return (sum + unapplied * perElement) / busyUntil.length;
    }

    @Override
    public void onMessage(int source, int target, long elem) {
        int h = dht.coreOf(target) % handlers;
        int server = dht.nodeOf(target) * handlers + h;
        long start = Math.max(dht.simulator().now() + dht.costs().pollPs(), busyUntil[server]);
        long extract = dht.costs().amExtractPs();
        busyUntil[server] = start + extract + dht.applyLocally(elem, firstHandler + h, start + extract);
    }
}
