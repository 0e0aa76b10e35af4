package org.pagefabric.sim.collect;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.function.IntFunction;

/**
 * Reusable work records that an event names by index: a driver hands one out per request in
 * flight, passes its index as an event's argument (no object per event), and returns it when
 * the request is done. Idle records are reused first in, first out; a new one is made only when
 * none is idle, and keeps its index for life.
 *
 * @param <T> the record type
 */
public final class IndexedPool<T> {
    private final ArrayList<T> all = new ArrayList<>();
    private final ArrayDeque<T> idle = new ArrayDeque<>();
    private final IntFunction<T> make;

    /** A pool that makes its records with {@code make}, given the new record's index. */
    public IndexedPool(IntFunction<T> make) {
        this.make = make;
    }

    /** An idle record, or a new one whose index is the number made so far. */
    public T take() {
        T t = idle.pollFirst();
        if (t == null) {
            t = make.apply(all.size());
            all.add(t);
        }
        return t;
    }

    /** Returns {@code t} to the idle records. */
    public void release(T t) {
        idle.addLast(t);
    }

    /** The record made with index {@code index}. */
    public T get(int index) {
        return all.get(index);
    }
}
