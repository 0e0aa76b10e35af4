package org.pagefabric.reg.firehose;

import java.util.Arrays;
import org.agrona.collections.Hashing;
import org.agrona.collections.Long2LongHashMap;
import org.pagefabric.sim.process.Completion;

/**
 * The firehoses one node owns (004 §3.2, Table 1): F to every other node, each mapped to one
 * remote bucket, found by (node, bucket) in a primitive hash table. Each firehose has a
 * reference count of the local operations in flight through it; firehoses nobody uses wait in a
 * per-node firehose victim FIFO, least recently used first, and are the ones a miss moves.
 *
 * <p>A firehose attached by a move still in flight is <em>pending</em>: it carries the
 * completion the move completes, so another operation that needs the same remote bucket waits
 * for the move instead of sending its own.
 *
 * <p>Every operation is O(1) on average; slots are recycled through a free list.
 */
final class FirehoseTable {
    private static final int NONE = -1;
    private static final int NODE_SHIFT = 40;

    private final int perNode;
    /** Slot of each mapped (node, bucket) key; the values are ints held as longs (Agrona has no long-to-int map). */
    private final Long2LongHashMap index;
    private long[] key = new long[64];
    private int[] refs = new int[64];
    private int[] newer = new int[64];
    private int[] older = new int[64];
    private Completion[] moving = new Completion[64];
    private int[] free = new int[64];
    private int freeTop;
    private int slots;
    private final int[] used;
    /** Per node: oldest idle firehose (next victim), newest idle firehose, idle count. */
    private final int[] fifoOldest;
    private final int[] fifoNewest;
    private final int[] fifoLength;

    /**
     * @param nodes   nodes of the job (this node's own entry stays empty)
     * @param perNode firehoses to each other node (F)
     */
    FirehoseTable(int nodes, int perNode) {
        if (perNode < 1) {
            throw new IllegalArgumentException("F = " + perNode + " firehoses per node: M is smaller than one bucket"
                    + " per remote node");
        }
        this.perNode = perNode;
        this.index = new Long2LongHashMap(64, Hashing.DEFAULT_LOAD_FACTOR, NONE);
        this.used = new int[nodes];
        this.fifoOldest = new int[nodes];
        this.fifoNewest = new int[nodes];
        this.fifoLength = new int[nodes];
        Arrays.fill(fifoOldest, NONE);
        Arrays.fill(fifoNewest, NONE);
    }

    /** Firehoses to each other node (F). */
    int perNode() {
        return perNode;
    }

    private static long key(int node, int bucket) {
        return ((long) node << NODE_SHIFT) | bucket;
    }

    /** The firehose mapping {@code bucket} of {@code node}, or -1. */
    int find(int node, int bucket) {
        return (int) index.get(key(node, bucket));
    }

    /** The remote bucket firehose {@code slot} maps. */
    int bucket(int slot) {
        return (int) (key[slot] & ((1L << NODE_SHIFT) - 1));
    }

    /** Operations in flight through firehose {@code slot}. */
    int refs(int slot) {
        return refs[slot];
    }

    /** The completion of the move that attaches firehose {@code slot}, or null once it is attached. */
    Completion moving(int slot) {
        return moving[slot];
    }

    /** Firehoses to {@code node} that are mapped (in use, idle or pending). */
    int used(int node) {
        return used[node];
    }

    /** Idle firehoses to {@code node}: mapped, no operation using them. */
    int idle(int node) {
        return fifoLength[node];
    }

    /** Firehoses a miss to {@code node} can take now: unused ones plus idle ones. */
    int available(int node) {
        return perNode - used[node] + fifoLength[node];
    }

    /** Firehoses to {@code node} never mapped or given back: a miss takes these before moving idle ones. */
    int unused(int node) {
        return perNode - used[node];
    }

    /** Adds an operation to firehose {@code slot}; an idle firehose leaves its victim FIFO. */
    void acquire(int slot) {
        if (refs[slot]++ == 0) {
            unlink(slot);
        }
    }

    /**
     * Drops an operation from firehose {@code slot}; without any it becomes the newest idle
     * firehose of its node.
     *
     * @return whether the firehose became idle
     */
    boolean release(int slot) {
        if (refs[slot] == 0) {
            throw new IllegalStateException("firehose to bucket " + bucket(slot) + " of node " + node(slot)
                    + ": reference count would go below zero");
        }
        if (--refs[slot] > 0) {
            return false;
        }
        int node = node(slot);
        int newest = fifoNewest[node];
        older[slot] = newest;
        newer[slot] = NONE;
        if (newest != NONE) {
            newer[newest] = slot;
        } else {
            fifoOldest[node] = slot;
        }
        fifoNewest[node] = slot;
        fifoLength[node]++;
        return true;
    }

    /**
     * Detaches the least recently used idle firehose to {@code node}, to be moved.
     *
     * @return the remote bucket it mapped (the target must drop its reference), or -1 if none is idle
     */
    int detachOldest(int node) {
        int slot = fifoOldest[node];
        if (slot == NONE) {
            return NONE;
        }
        int bucket = bucket(slot);
        unlink(slot);
        index.remove(key[slot]);
        used[node]--;
        free[freeTop++] = slot;
        return bucket;
    }

    /**
     * Maps an unused firehose to {@code bucket} of {@code node}, pending on {@code move}, with
     * the caller's operation on it.
     *
     * @return its slot
     */
    int attach(int node, int bucket, Completion move) {
        if (used[node] >= perNode) {
            throw new IllegalStateException("all " + perNode + " firehoses to node " + node + " are mapped");
        }
        if (find(node, bucket) != NONE) {
            throw new IllegalStateException("bucket " + bucket + " of node " + node + " already has a firehose");
        }
        int slot = freeTop > 0 ? free[--freeTop] : newSlot();
        key[slot] = key(node, bucket);
        refs[slot] = 1;
        newer[slot] = NONE;
        older[slot] = NONE;
        moving[slot] = move;
        index.put(key[slot], slot);
        used[node]++;
        return slot;
    }

    /** The move of firehose {@code slot} is done: the remote bucket is pinned. */
    void settle(int slot) {
        moving[slot] = null;
    }

    private int newSlot() {
        if (slots == key.length) {
            int n = slots * 2;
            key = Arrays.copyOf(key, n);
            refs = Arrays.copyOf(refs, n);
            newer = Arrays.copyOf(newer, n);
            older = Arrays.copyOf(older, n);
            moving = Arrays.copyOf(moving, n);
            free = Arrays.copyOf(free, n);
        }
        return slots++;
    }

    private int node(int slot) {
        return (int) (key[slot] >>> NODE_SHIFT);
    }

    private void unlink(int slot) {
        int node = node(slot);
        int n = newer[slot];
        int o = older[slot];
        if (n != NONE) {
            older[n] = o;
        } else {
            fifoNewest[node] = o;
        }
        if (o != NONE) {
            newer[o] = n;
        } else {
            fifoOldest[node] = n;
        }
        newer[slot] = NONE;
        older[slot] = NONE;
        fifoLength[node]--;
    }

    /** Mapped firehoses over all nodes (the hash table's size). */
    int mapped() {
        return index.size();
    }
}
