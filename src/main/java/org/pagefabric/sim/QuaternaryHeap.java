package org.pagefabric.sim;

import java.util.Arrays;
import java.util.function.LongPredicate;

/**
 * A 4-ary min-heap over one interleaved {@code long[]}: entry {@code i} occupies words
 * {@code 3i} (time), {@code 3i+1} (key) and {@code 3i+2} (reference).
 *
 * <p>Why this shape: with a million events in flight the heap no longer fits in cache, and the
 * cost of a sift is the number of cache lines it touches. Four children are 96 contiguous bytes
 * (two lines), half the depth of a binary heap, and keeping time, key and reference together
 * means moving an entry touches one place, not three arrays.
 */
public final class QuaternaryHeap implements FutureEventSet {
    private static final int STRIDE = 3;

    private long[] a;
    private int n;

    /** Creates a heap with room for {@code initialCapacity} entries before it grows. */
    public QuaternaryHeap(int initialCapacity) {
        a = new long[Math.max(4, initialCapacity) * STRIDE];
    }

    /** Creates a heap with a small initial capacity. */
    public QuaternaryHeap() {
        this(1024);
    }

    @Override
    public int size() {
        return n;
    }

    @Override
    public long minTime() {
        return a[0];
    }

    @Override
    public long minKey() {
        return a[1];
    }

    @Override
    public long minRef() {
        return a[2];
    }

    @Override
    public void add(long time, long key, long ref) {
        if ((n + 1) * STRIDE > a.length) {
            a = Arrays.copyOf(a, a.length * 2);
        }
        siftUp(n++, time, key, ref);
    }

    @Override
    public void removeMin() {
        int last = --n;
        if (last > 0) {
            int o = last * STRIDE;
            siftDown(0, a[o], a[o + 1], a[o + 2]);
        }
    }

    @Override
    public void replaceMin(long time, long key, long ref) {
        siftDown(0, time, key, ref);
    }

    @Override
    public void removeIf(LongPredicate dead) {
        int w = 0;
        for (int r = 0; r < n; r++) {
            int o = r * STRIDE;
            if (!dead.test(a[o + 2])) {
                int p = w * STRIDE;
                a[p] = a[o];
                a[p + 1] = a[o + 1];
                a[p + 2] = a[o + 2];
                w++;
            }
        }
        n = w;
        // Floyd's bottom-up heap construction: O(n).
        for (int i = (n - 2) >> 2; i >= 0; i--) {
            int o = i * STRIDE;
            siftDown(i, a[o], a[o + 1], a[o + 2]);
        }
    }

    @Override
    public void clear() {
        n = 0;
    }

    private void siftUp(int i, long t, long k, long r) {
        final long[] h = a;
        while (i > 0) {
            int p = (i - 1) >> 2;
            int po = p * STRIDE;
            long pt = h[po];
            if (pt < t || (pt == t && h[po + 1] < k)) {
                break;
            }
            int o = i * STRIDE;
            h[o] = pt;
            h[o + 1] = h[po + 1];
            h[o + 2] = h[po + 2];
            i = p;
        }
        int o = i * STRIDE;
        h[o] = t;
        h[o + 1] = k;
        h[o + 2] = r;
    }

    /** Moves the hole at {@code i} down until (t, k) fits, then stores the entry there. */
    private void siftDown(int i, long t, long k, long r) {
        final long[] h = a;
        final int size = n;
        while (true) {
            int c = (i << 2) + 1;
            if (c >= size) {
                break;
            }
            int co = c * STRIDE;
            int m = co;
            long mt = h[co];
            long mk = h[co + 1];
            int end = Math.min(c + 4, size) * STRIDE;
            for (int j = co + STRIDE; j < end; j += STRIDE) {
                long jt = h[j];
                if (jt < mt || (jt == mt && h[j + 1] < mk)) {
                    m = j;
                    mt = jt;
                    mk = h[j + 1];
                }
            }
            if (t < mt || (t == mt && k < mk)) {
                break;
            }
            int o = i * STRIDE;
            h[o] = mt;
            h[o + 1] = mk;
            h[o + 2] = h[m + 2];
            i = m / STRIDE;
        }
        int o = i * STRIDE;
        h[o] = t;
        h[o + 1] = k;
        h[o + 2] = r;
    }
}
