package org.pagefabric.sim;

/** A growable FIFO of primitive ints: the kernel's same-time fast path for one band. */
final class IntRing {
    private int[] buf = new int[64];
    private int head;
    private int size;

    void add(int v) {
        if (size == buf.length) {
            int[] nb = new int[buf.length * 2];
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

    int poll() {
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
}
