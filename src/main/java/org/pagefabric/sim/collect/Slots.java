package org.pagefabric.sim.collect;

import java.util.Arrays;
import org.agrona.collections.IntArrayQueue;

/**
 * The state of operations in flight between an event's scheduling and its handling, in
 * primitive arrays indexed by a slot number the event carries as its argument, so that steady
 * traffic allocates nothing: two processes, an operation code and three words per slot. Slots
 * are reused in the order they were freed and the arrays grow by doubling.
 */
public final class Slots {
    private int[] source = new int[64];
    private int[] target = new int[64];
    private int[] op = new int[64];
    private long[] x = new long[64];
    private long[] y = new long[64];
    private long[] z = new long[64];
    private final IntArrayQueue free = new IntArrayQueue();
    private int used;

    /** Stores one operation and returns its slot. */
    public int take(int source, int target, int op, long x, long y, long z) {
        int s;
        if (!free.isEmpty()) {
            s = free.removeInt();
        } else {
            if (used == this.op.length) {
                int n = this.op.length * 2;
                this.source = Arrays.copyOf(this.source, n);
                this.target = Arrays.copyOf(this.target, n);
                this.op = Arrays.copyOf(this.op, n);
                this.x = Arrays.copyOf(this.x, n);
                this.y = Arrays.copyOf(this.y, n);
                this.z = Arrays.copyOf(this.z, n);
            }
            s = used++;
        }
        this.source[s] = source;
        this.target[s] = target;
        this.op[s] = op;
        this.x[s] = x;
        this.y[s] = y;
        this.z[s] = z;
        return s;
    }

    /** Makes slot {@code s} available again; its values stay readable until it is taken. */
    public void release(int s) {
        free.addInt(s);
    }

    /** The source process of slot {@code s}. */
    public int source(int s) {
        return source[s];
    }

    /** The target process of slot {@code s}. */
    public int target(int s) {
        return target[s];
    }

    /** The operation of slot {@code s}. */
    public int op(int s) {
        return op[s];
    }

    /** The first word of slot {@code s}. */
    public long x(int s) {
        return x[s];
    }

    /** The second word of slot {@code s}. */
    public long y(int s) {
        return y[s];
    }

    /** The third word of slot {@code s}. */
    public long z(int s) {
        return z[s];
    }
}
