package org.pagefabric.workload.aaapps;

/**
 * A first-in first-out queue of fixed-shape entries (three words and a byte count), kept in
 * primitive arrays that grow by doubling, so that steady-state traffic allocates nothing.
 */
final class EntryQueue {
    private long[] a = new long[16];
    private long[] b = new long[16];
    private long[] c = new long[16];
    private int[] bytes = new int[16];
    private int head;
    private int size;

    void add(long x, long y, long z, int n) {
        if (size == a.length) {
            grow();
        }
        int i = (head + size) & (a.length - 1);
        a[i] = x;
        b[i] = y;
        c[i] = z;
        bytes[i] = n;
        size++;
    }

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    long a() {
        return a[head];
    }

    long b() {
        return b[head];
    }

    long c() {
        return c[head];
    }

    int bytes() {
        return bytes[head];
    }

    /** Drops the head entry (read it first with {@link #a()} ... {@link #bytes()}). */
    void remove() {
        if (size == 0) {
            throw new IllegalStateException("empty entry queue");
        }
        head = (head + 1) & (a.length - 1);
        size--;
    }

    private void grow() {
        int n = a.length * 2;
        long[] na = new long[n];
        long[] nb = new long[n];
        long[] nc = new long[n];
        int[] nn = new int[n];
        for (int k = 0; k < size; k++) {
            int i = (head + k) & (a.length - 1);
            na[k] = a[i];
            nb[k] = b[i];
            nc[k] = c[i];
            nn[k] = bytes[i];
        }
        a = na;
        b = nb;
        c = nc;
        bytes = nn;
        head = 0;
    }
}
