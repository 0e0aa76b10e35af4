package org.pagefabric.sim;

import java.util.Arrays;

/** A growable FIFO of primitive longs: the kernel's same-time fast path for one band. */
final class LongRing {
    private long[] buf = new long[64];
    private int head;
    private int size;

    void add(long v) {
        if (size == buf.length) {
            long[] nb = new long[buf.length * 2];
            int first = buf.length - head;
            System.arraycopy(buf, head, nb, 0, Math.min(first, size));
            if (first < size) {
                System.arraycopy(buf, 0, nb, first, size - first);
            }
            buf = nb;
            head = 0;
        }
        buf[(head + size) & (buf.length - 1)] = v;
        size++;
    }

    long peek() {
        return buf[head];
    }

    long poll() {
        long v = buf[head];
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

    void clear() {
        head = 0;
        size = 0;
        Arrays.fill(buf, 0L);
    }
}
