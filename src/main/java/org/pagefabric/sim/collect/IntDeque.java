package org.pagefabric.sim.collect;

/**
 * A growable double-ended queue of primitive ints, for run queues on hot paths that must not box
 * or allocate per element. Agrona's {@code IntArrayQueue} serves plain FIFOs; this one also puts
 * an item back at the head (a preempted thread returning to the front of its run queue).
 */
public final class IntDeque {
    private int[] buf = new int[16];
    private int head;
    private int size;

    /** Appends at the tail. */
    public void addLast(int v) {
        grow();
        buf[(head + size) & (buf.length - 1)] = v;
        size++;
    }

    /** Prepends at the head (e.g. a preempted item returning to the front). */
    public void addFirst(int v) {
        grow();
        head = (head - 1) & (buf.length - 1);
        buf[head] = v;
        size++;
    }

    /** Removes and returns the head; the queue must not be empty. */
    public int pollFirst() {
        if (size == 0) {
            throw new IllegalStateException("empty queue");
        }
        int v = buf[head];
        head = (head + 1) & (buf.length - 1);
        size--;
        return v;
    }

    /** Whether the queue is empty. */
    public boolean isEmpty() {
        return size == 0;
    }

    /** Elements queued. */
    public int size() {
        return size;
    }

    private void grow() {
        if (size < buf.length) {
            return;
        }
        int[] nb = new int[buf.length * 2];
        for (int i = 0; i < size; i++) {
            nb[i] = buf[(head + i) & (buf.length - 1)];
        }
        buf = nb;
        head = 0;
    }
}
