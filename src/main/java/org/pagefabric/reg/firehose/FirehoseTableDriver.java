package org.pagefabric.reg.firehose;

/**
 * Drives one node's firehose table outside a simulation, for the JMH benchmark that shows its
 * operations take constant time on average whatever the table's size: a full table of F
 * firehoses to one remote node, every one idle, on which a hit (find, acquire, release) or a
 * move (detach the least recently used firehose, attach it to a new bucket, settle) runs.
 */
final class FirehoseTableDriver {
    private final FirehoseTable table;
    private final int perNode;
    private int nextBucket;

    /** A table with {@code perNode} firehoses to node 1, all mapped (buckets 0..F-1) and idle. */
    public FirehoseTableDriver(int perNode) {
        this.table = new FirehoseTable(2, perNode);
        this.perNode = perNode;
        for (int b = 0; b < perNode; b++) {
            table.release(table.attach(1, b, null));
        }
        nextBucket = perNode;
    }

    /** Firehoses in the table. */
    public int size() {
        return table.mapped();
    }

    /**
     * A hit on the firehose of bucket {@code i mod F} counted from the oldest mapped one: find
     * it, take a reference, drop it (it becomes the newest idle firehose).
     *
     * @return the slot found
     */
    public int hit(int i) {
        int slot = table.find(1, nextBucket - perNode + Math.floorMod(i, perNode));
        table.acquire(slot);
        table.release(slot);
        return slot;
    }

    /**
     * A miss: the least recently used idle firehose moves to a bucket never mapped before.
     *
     * @return the bucket it left
     */
    public int move() {
        int left = table.detachOldest(1);
        int slot = table.attach(1, nextBucket++, null);
        table.settle(slot);
        table.release(slot);
        return left;
    }
}
