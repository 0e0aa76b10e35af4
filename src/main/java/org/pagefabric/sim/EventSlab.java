package org.pagefabric.sim;

import java.util.Arrays;

/**
 * Storage for pending events: parallel arrays indexed by slot, with freed slots recycled
 * through a stack. A slot is freed only when its queue entry is consumed (run, or dropped
 * after cancellation), so a queue entry's slot always belongs to that entry.
 *
 * <p>A slot's generation counts its reuses; the handle given to callers is
 * {@code generation << 32 | slot}, so a handle to an event that has fired or been cancelled no
 * longer matches and cancelling through it is harmless.
 */
final class EventSlab {
    /** Slots are packed into 26 bits of the queue key. */
    static final int MAX_SLOTS = 1 << 26;

    /** The receiver; {@code null} once the event was cancelled (or the slot is free). */
    EventHandler[] handler;
    int[] type;
    long[] arg;
    int[] gen;
    /** Whether the slot's queue entry sits in the heap (not a same-time FIFO). */
    boolean[] inHeap;
    private int[] free;
    private int freeTop;
    private int used;

    EventSlab(int capacity) {
        capacity = Math.max(16, Math.min(capacity, MAX_SLOTS));
        handler = new EventHandler[capacity];
        type = new int[capacity];
        arg = new long[capacity];
        gen = new int[capacity];
        inHeap = new boolean[capacity];
        free = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            free[i] = capacity - 1 - i;
            gen[i] = 1; // generation 0 never occurs, so handle 0 means "no event"
        }
        freeTop = capacity;
    }

    /** Takes a free slot, growing the arrays if none is left. */
    int allocate() {
        if (freeTop == 0) {
            grow();
        }
        used++;
        return free[--freeTop];
    }

    /** Returns a slot: its generation moves on so that old handles stop matching. */
    void release(int slot) {
        gen[slot]++;
        handler[slot] = null;
        free[freeTop++] = slot;
        used--;
    }

    long handle(int slot) {
        return ((long) gen[slot] << 32) | slot;
    }

    /** Slots in use: pending events plus cancelled ones whose entry has not surfaced yet. */
    int used() {
        return used;
    }

    private void grow() {
        int old = handler.length;
        if (old >= MAX_SLOTS) {
            throw new SimulationException("more than " + MAX_SLOTS + " events pending at once");
        }
        int cap = Math.min(old * 2, MAX_SLOTS);
        handler = Arrays.copyOf(handler, cap);
        type = Arrays.copyOf(type, cap);
        arg = Arrays.copyOf(arg, cap);
        gen = Arrays.copyOf(gen, cap);
        inHeap = Arrays.copyOf(inHeap, cap);
        free = Arrays.copyOf(free, cap);
        for (int i = cap - 1; i >= old; i--) {
            gen[i] = 1;
            free[freeTop++] = i;
        }
    }
}
