package org.pagefabric.sim;

import java.util.Arrays;

/**
 * Storage for pending events: parallel arrays indexed by slot, with freed slots recycled
 * through a stack. A slot's generation counts its reuses; an event handle is
 * {@code generation << 32 | slot}, so a handle to an event that has fired or been cancelled no
 * longer matches and is harmless: that is what makes cancellation lazy and O(1).
 */
final class EventSlab {
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
        capacity = Math.max(16, capacity);
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

    boolean matches(long ref) {
        return gen[(int) ref] == (int) (ref >>> 32);
    }

    static long ref(int slot, int generation) {
        return ((long) generation << 32) | (slot & 0xFFFF_FFFFL);
    }

    long refOf(int slot) {
        return ref(slot, gen[slot]);
    }

    int live() {
        return used;
    }

    private void grow() {
        int old = handler.length;
        int cap = old * 2;
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
