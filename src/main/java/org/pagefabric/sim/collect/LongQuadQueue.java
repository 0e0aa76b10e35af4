package org.pagefabric.sim.collect;

import java.util.NoSuchElementException;

/**
 * A first-in first-out queue of records of four longs, kept side by side in one ring array that
 * grows by doubling: a queue of small fixed-shape messages (an access-log entry, a polled
 * message) that allocates nothing per record once it has grown to its working size.
 *
 * <p>Read the head's fields with {@link #head(int)}, then drop it with {@link #remove()}.
 */
public final class LongQuadQueue {
    private static final int WIDTH = 4;

    private long[] ring;
    /** Index of the head record's first field. */
    private int head;
    private int size;

    /** An empty queue with room for 16 records before it grows. */
    public LongQuadQueue() {
        ring = new long[16 * WIDTH];
    }

    /** Appends the record {@code (f0, f1, f2, f3)} at the tail. */
    public void add(long f0, long f1, long f2, long f3) {
        if (size * WIDTH == ring.length) {
            grow();
        }
        int i = (head + size * WIDTH) & (ring.length - 1);
        ring[i] = f0;
        ring[i + 1] = f1;
        ring[i + 2] = f2;
        ring[i + 3] = f3;
        size++;
    }

    /**
     * Field {@code field} (0..3) of the head record.
     *
     * @throws NoSuchElementException if the queue is empty
     */
    public long head(int field) {
        if (size == 0) {
            throw new NoSuchElementException("empty queue");
        }
        return ring[head + field];
    }

    /**
     * Drops the head record.
     *
     * @throws NoSuchElementException if the queue is empty
     */
    public void remove() {
        if (size == 0) {
            throw new NoSuchElementException("empty queue");
        }
        head = (head + WIDTH) & (ring.length - 1);
        size--;
    }

    /**
     * Field {@code field} (0..3) of the record {@code index} places behind the head (0 is the
     * head): how a queue is searched without taking records out.
     *
     * @throws IndexOutOfBoundsException if there is no such record
     */
    public long get(int index, int field) {
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("record " + index + " of " + size);
        }
        return ring[((head + index * WIDTH) & (ring.length - 1)) + field];
    }

    /** Whether the queue holds no record. */
    public boolean isEmpty() {
        return size == 0;
    }

    /** Records queued. */
    public int size() {
        return size;
    }

    private void grow() {
        long[] bigger = new long[ring.length * 2];
        // Records never wrap inside: the ring's length and the head are multiples of WIDTH.
        int firstPart = ring.length - head;
        System.arraycopy(ring, head, bigger, 0, firstPart);
        System.arraycopy(ring, 0, bigger, firstPart, head);
        ring = bigger;
        head = 0;
    }
}
