package org.pagefabric.hw.cpu;

/** A growable double-ended queue of primitive ints: run queues without boxing. */
final class IntDeque {
    private int[] buf = new int[16];
    private int head;
    private int size;

    void addLast(int v) {
        grow();
        buf[(head + size) & (buf.length - 1)] = v;
        size++;
    }

    void addFirst(int v) {
        grow();
        head = (head - 1) & (buf.length - 1);
        buf[head] = v;
        size++;
    }

    int pollFirst() {
        if (size == 0) {
            throw new IllegalStateException("empty queue");
        }
        int v = buf[head];
        head = (head + 1) & (buf.length - 1);
        size--;
        return v;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
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
