package org.pagefabric.sim;

import java.util.Arrays;

/**
 * Storage for pending events, indexed by slot, with freed slots recycled through a stack (most
 * recently freed first, so the slot a handler schedules into is the one whose event just ran,
 * still in cache). A slot is freed only when its queue entry is consumed (run, or dropped after
 * cancellation), so a queue entry's slot always belongs to that entry.
 *
 * <p>Layout: with a million events pending, every line read at dispatch is a cache miss on the
 * critical path. Everything dispatch needs is one 16-byte pair in one {@code long[]}: the
 * argument, and a word packing the handler's id, whether the queue entry is in the heap, and
 * the event type. The handler itself comes from a small table of handler ids, which stays in
 * cache.
 *
 * <p>Handles: an event's handle is {@code serial << 26 | slot}, where the serial counts
 * insertions (38 bits, so it repeats only after 2.7e11 events). The slot's current handle is
 * kept in its own array, written once at insertion (a store that never waits for memory) and
 * read only by {@code cancel} and {@code isPending}. A stale handle stops matching as soon as
 * its slot holds another event, however often that slot is reused.
 */
final class EventSlab {
    /** Slots are packed into 26 bits of the queue key and of the handle. */
    static final int SLOT_BITS = 26;
    static final int MAX_SLOTS = 1 << SLOT_BITS;
    static final long SLOT_MASK = MAX_SLOTS - 1;
    /** Handler id of a slot whose event was cancelled (or that is free). */
    static final int DEAD = 0;
    /** Handler ids must fit 30 bits of the payload word. */
    static final int MAX_HANDLER_ID = (1 << 30) - 1;
    private static final long SERIAL_MASK = (1L << (64 - SLOT_BITS - 1)) - 1;
    private static final long IN_HEAP = 1L << 32;

    /** Per slot: word {@code 2s} is the argument, word {@code 2s+1} is {@code id << 33 | inHeap << 32 | type}. */
    long[] payload;
    /** Per slot: the handle of the event it holds (stale once that event is gone). */
    private long[] handles;
    private int[] free;
    private int freeTop;
    private long serial;

    EventSlab(int capacity) {
        capacity = Math.max(16, Math.min(capacity, MAX_SLOTS));
        payload = new long[2 * capacity];
        handles = new long[capacity];
        free = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            free[i] = capacity - 1 - i;
        }
        freeTop = capacity;
    }

    /** Takes a free slot, growing the arrays if none is left. */
    int allocate() {
        if (freeTop == 0) {
            grow();
        }
        return free[--freeTop];
    }

    /** Stores an event in an allocated slot and returns its handle (never 0). */
    long set(int slot, int handlerId, int type, long arg, boolean inHeap) {
        payload[2 * slot] = arg;
        payload[2 * slot + 1] = ((long) handlerId << 33) | (inHeap ? IN_HEAP : 0) | (type & 0xFFFF_FFFFL);
        serial = (serial + 1) & SERIAL_MASK;
        if (serial == 0) {
            serial = 1;
        }
        long handle = (serial << SLOT_BITS) | slot;
        handles[slot] = handle;
        return handle;
    }

    /** Returns a slot to the free stack. */
    void release(int slot) {
        payload[2 * slot + 1] = 0; // DEAD
        free[freeTop++] = slot;
    }

    static int handlerIdOf(long word) {
        return (int) (word >>> 33);
    }

    int handlerId(int slot) {
        return handlerIdOf(payload[2 * slot + 1]);
    }

    boolean inHeap(int slot) {
        return (payload[2 * slot + 1] & IN_HEAP) != 0;
    }

    /** Marks the slot's event cancelled; its queue entry is dropped when consumed. */
    void kill(int slot) {
        payload[2 * slot + 1] &= IN_HEAP | 0xFFFF_FFFFL;
    }

    /** Whether {@code handle} names the live event in its slot. */
    boolean isLive(long handle) {
        long s = handle & SLOT_MASK;
        return handle > 0 && s < handles.length && handles[(int) s] == handle && handlerId((int) s) != DEAD;
    }

    private void grow() {
        int old = handles.length;
        if (old >= MAX_SLOTS) {
            throw new SimulationException("more than " + MAX_SLOTS + " events pending at once");
        }
        int cap = Math.min(old * 2, MAX_SLOTS);
        payload = Arrays.copyOf(payload, 2 * cap);
        handles = Arrays.copyOf(handles, cap);
        free = Arrays.copyOf(free, cap);
        for (int i = cap - 1; i >= old; i--) {
            free[freeTop++] = i;
        }
    }
}
