package org.pagefabric.workload.dht;

import java.util.Arrays;

/** A growable FIFO ring of longs: a process's receive buffer of active messages. */
final class LongQueue {
    private long[] buf = new long[8];
    private int head;
    private int size;

    void add(long v) {
        if (size == buf.length) {
            long[] n = new long[buf.length * 2];
            for (int i = 0; i < size; i++) {
                n[i] = buf[(head + i) & (buf.length - 1)];
            }
            buf = n;
            head = 0;
        }
        buf[(head + size) & (buf.length - 1)] = v;
        size++;
    }

    long poll() {
        if (size == 0) {
            throw new IllegalStateException("empty queue");
        }
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

    @Override
    public String toString() {
        return "LongQueue" + Arrays.toString(Arrays.copyOf(buf, 0)) + "[" + size + "]";
    }
}
