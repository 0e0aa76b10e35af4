package org.pagefabric.hw.net;

import java.util.Arrays;

/**
 * The trains waiting at one link, least first by the offer time of each one's next packet not
 * yet serialized ({@link Packet#trainCursor}'s {@link Packet#trainAt}), then by the order the link
 * took them in ({@link Packet#trainSeq}): a binary heap of train heads by pool index, so that
 * holding trains allocates nothing once the array has grown to the most trains ever waiting.
 */
final class TrainHeap {
    private final PacketPool pool;
    private int[] heads = new int[8];
    private int size;

    TrainHeap(PacketPool pool) {
        this.pool = pool;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The least train's head. */
    Packet peek() {
        return pool.get(heads[0]);
    }

    /** The offer time of the least train's next packet. */
    long leastOffer() {
        return pool.get(heads[0]).trainCursor.trainAt;
    }

    /** Adds a train whose cursor is set. */
    void add(Packet head) {
        if (size == heads.length) {
            heads = Arrays.copyOf(heads, size * 2);
        }
        int i = size++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            Packet p = pool.get(heads[parent]);
            if (!less(head, p)) {
                break;
            }
            heads[i] = heads[parent];
            i = parent;
        }
        heads[i] = head.index();
    }

    /** Removes the least train. */
    void poll() {
        int last = heads[--size];
        if (size > 0) {
            siftDown(pool.get(last));
        }
    }

    /** The least train's cursor has moved on: puts it back in its place. */
    void update() {
        siftDown(pool.get(heads[0]));
    }

    private void siftDown(Packet x) {
        int i = 0;
        int half = size >>> 1;
        while (i < half) {
            int c = 2 * i + 1;
            Packet child = pool.get(heads[c]);
            int r = c + 1;
            if (r < size) {
                Packet right = pool.get(heads[r]);
                if (less(right, child)) {
                    c = r;
                    child = right;
                }
            }
            if (!less(child, x)) {
                break;
            }
            heads[i] = heads[c];
            i = c;
        }
        heads[i] = x.index();
    }

    private static boolean less(Packet a, Packet b) {
        long oa = a.trainCursor.trainAt;
        long ob = b.trainCursor.trainAt;
        return oa < ob || oa == ob && a.trainSeq < b.trainSeq;
    }
}
