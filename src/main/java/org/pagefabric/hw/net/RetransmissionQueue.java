package org.pagefabric.hw.net;

/**
 * Selective retransmission: the blocks waiting to be sent again, oldest first, a growable ring
 * of block sequence numbers. Entries may go stale (the block was acknowledged meanwhile); the
 * sender skips them when it takes them.
 */
final class RetransmissionQueue {
    private long[] queue;
    private int head;
    private int size;

    RetransmissionQueue(int capacity) {
        queue = new long[capacity];
    }

    /** Whether no block waits. */
    boolean isEmpty() {
        return size == 0;
    }

    /** Takes the oldest block; the queue must not be empty. */
    long poll() {
        long b = queue[head];
        head = (head + 1) % queue.length;
        size--;
        return b;
    }

    /** Queues block {@code b}, doubling the ring if it is full. */
    void add(long b) {
        if (size == queue.length) {
            long[] bigger = new long[queue.length * 2];
            for (int i = 0; i < size; i++) {
                bigger[i] = queue[(head + i) % queue.length];
            }
            queue = bigger;
            head = 0;
        }
        queue[(head + size) % queue.length] = b;
        size++;
    }

    /** Drops every waiting block. */
    void clear() {
        size = 0;
    }
}
