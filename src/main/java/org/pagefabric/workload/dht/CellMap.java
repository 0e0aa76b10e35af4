package org.pagefabric.workload.dht;

import java.util.function.LongBinaryOperator;

/**
 * A sparse word-addressed memory: open addressing from a non-negative address to a 64-bit word,
 * absent words reading 0. A DHT volume of 2^21 cells touched in a few places costs what it
 * touched, so 32 768 volumes fit in a heap. Primitive arrays only: no boxing per access.
 */
final class CellMap {
    private static final long EMPTY = -1L;

    private long[] keys;
    private long[] values;
    private int size;

    CellMap() {
        keys = new long[8];
        values = new long[8];
        java.util.Arrays.fill(keys, EMPTY);
    }

    /** The word at {@code address}, 0 if never written. */
    long get(long address) {
        int i = find(address);
        return keys[i] == EMPTY ? 0L : values[i];
    }

    /** Writes the word at {@code address}. */
    void put(long address, long value) {
        int i = find(address);
        if (keys[i] == EMPTY) {
            keys[i] = address;
            size++;
            values[i] = value;
            if (size * 4 > keys.length * 3) {
                grow();
            }
            return;
        }
        values[i] = value;
    }

    /** Words written so far (including words written back to 0). */
    int size() {
        return size;
    }

    /** Calls {@code visit(address, value)} for every written word, in table order. */
    void forEach(LongBinaryOperator visit) {
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != EMPTY) {
                visit.applyAsLong(keys[i], values[i]);
            }
        }
    }

    private int find(long address) {
        int mask = keys.length - 1;
        int i = (int) (org.pagefabric.sim.RandomStream.mix64(address) & mask);
        while (keys[i] != EMPTY && keys[i] != address) {
            i = (i + 1) & mask;
        }
        return i;
    }

    private void grow() {
        long[] k = keys;
        long[] v = values;
        keys = new long[k.length * 2];
        values = new long[k.length * 2];
        java.util.Arrays.fill(keys, EMPTY);
        for (int j = 0; j < k.length; j++) {
            if (k[j] != EMPTY) {
                int i = find(k[j]);
                keys[i] = k[j];
                values[i] = v[j];
            }
        }
    }
}
