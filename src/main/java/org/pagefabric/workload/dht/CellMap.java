package org.pagefabric.workload.dht;

import java.util.function.LongBinaryOperator;

/**
 * A sparse word-addressed memory: open addressing from a non-negative address to a 64-bit word,
 * absent words reading 0. A DHT volume of 2^21 cells touched in a few places costs what it
 * touched, so 32 768 volumes fit in a heap. Primitive arrays only: no boxing per access.
 */
final class CellMap {
    private static final long EMPTY = -1L;

    // key at 2i, value at 2i+1: a probe reads one cache line, not one in each of two arrays
    private long[] slots;
    private int mask;
    private int size;

    CellMap() {
        slots = new long[16];
        mask = 7;
        java.util.Arrays.fill(slots, EMPTY);
    }

    /** The word at {@code address}, 0 if never written. */
    long get(long address) {
        int i = find(address);
        return slots[i] == EMPTY ? 0L : slots[i + 1];
    }

    /** Writes the word at {@code address}. */
    void put(long address, long value) {
        int i = find(address);
        if (slots[i] == EMPTY) {
            slots[i] = address;
            slots[i + 1] = value;
            size++;
            if (size * 4 > (mask + 1) * 3) {
                grow();
            }
            return;
        }
        slots[i + 1] = value;
    }

    /** Words written so far (including words written back to 0). */
    int size() {
        return size;
    }

    /** Calls {@code visit(address, value)} for every written word, in table order. */
    void forEach(LongBinaryOperator visit) {
        for (int i = 0; i < slots.length; i += 2) {
            if (slots[i] != EMPTY) {
                visit.applyAsLong(slots[i], slots[i + 1]);
            }
        }
    }

    /** The index of {@code address}'s key, or of the empty slot where it would go. */
    private int find(long address) {
        int i = (int) (org.pagefabric.sim.RandomStream.mix64(address) & mask);
        long k;
        while ((k = slots[2 * i]) != EMPTY && k != address) {
            i = (i + 1) & mask;
        }
        return 2 * i;
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        mask = (mask << 1) | 1;
        java.util.Arrays.fill(slots, EMPTY);
        for (int j = 0; j < old.length; j += 2) {
            if (old[j] != EMPTY) {
                int i = find(old[j]);
                slots[i] = old[j];
                slots[i + 1] = old[j + 1];
            }
        }
    }
}
