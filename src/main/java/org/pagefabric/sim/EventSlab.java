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
 *
 * <p>Layout: with a million events pending, every array touched at dispatch is a cache miss.
 * The argument and the (generation, type) word of a slot sit side by side in one {@code long[]},
 * so a dispatch reads two lines (that pair and the handler), not four.
 */
final class EventSlab {
    /** Slots are packed into 26 bits of the queue key. */
    static final int MAX_SLOTS = 1 << 26;

    /** The receiver; {@code null} once the event was cancelled (or the slot is free). */
    EventHandler[] handler;
    /** Per slot: word {@code 2s} is the argument, word {@code 2s+1} is generation << 32 | type. */
    long[] data;
    /** Whether the slot's queue entry sits in the heap (not a same-time FIFO). */
    boolean[] inHeap;
    private int[] free;
    private int freeTop;
    private int used;

    EventSlab(int capacity) {
        capacity = Math.max(16, Math.min(capacity, MAX_SLOTS));
        handler = new EventHandler[capacity];
        data = new long[2 * capacity];
        inHeap = new boolean[capacity];
        free = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            free[i] = capacity - 1 - i;
            data[2 * i + 1] = 1L << 32; // generation 0 never occurs, so handle 0 means "no event"
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
        data[2 * slot + 1] += 1L << 32;
        handler[slot] = null;
        free[freeTop++] = slot;
        used--;
    }

    /** Stores an event in an allocated slot, keeping the slot's generation. */
    void set(int slot, EventHandler h, int type, long arg) {
        handler[slot] = h;
        data[2 * slot] = arg;
        data[2 * slot + 1] = (data[2 * slot + 1] & 0xFFFF_FFFF_0000_0000L) | (type & 0xFFFF_FFFFL);
    }

    long handle(int slot) {
        return (data[2 * slot + 1] & 0xFFFF_FFFF_0000_0000L) | slot;
    }

    int generation(int slot) {
        return (int) (data[2 * slot + 1] >>> 32);
    }

    int type(int slot) {
        return (int) data[2 * slot + 1];
    }

    long arg(int slot) {
        return data[2 * slot];
    }

    int capacity() {
        return handler.length;
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
        data = Arrays.copyOf(data, 2 * cap);
        inHeap = Arrays.copyOf(inHeap, cap);
        free = Arrays.copyOf(free, cap);
        for (int i = cap - 1; i >= old; i--) {
            data[2 * i + 1] = 1L << 32;
            free[freeTop++] = i;
        }
    }
}
