package org.pagefabric.reg.firehose;

import java.util.Arrays;
import org.pagefabric.sim.RandomStream;

/**
 * An open-addressing hash map from non-negative {@code long} keys to non-negative {@code int}
 * values, with linear probing and backward-shift deletion: O(1) on average, no boxing and no
 * allocation except when it grows. The firehose table looks up (node, bucket) pairs in it on
 * every put, so it must not cost a node object per entry.
 */
final class LongIntMap {
    /** Returned by {@link #get} and {@link #remove} for an absent key. */
    static final int ABSENT = -1;
    private static final long EMPTY = -1L;

    private long[] keys;
    private int[] values;
    private int mask;
    private int size;

    /** A map sized for about {@code expected} entries before it grows. */
    LongIntMap(int expected) {
        int capacity = Integer.highestOneBit(Math.max(4, expected) * 2 - 1) << 1;
        allocate(capacity);
    }

    private void allocate(int capacity) {
        keys = new long[capacity];
        Arrays.fill(keys, EMPTY);
        values = new int[capacity];
        mask = capacity - 1;
    }

    /** Entries held. */
    int size() {
        return size;
    }

    /** The value of {@code key}, or {@link #ABSENT}. */
    int get(long key) {
        for (int i = slot(key); ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) {
                return values[i];
            }
            if (k == EMPTY) {
                return ABSENT;
            }
        }
    }

    /**
     * Maps {@code key} to {@code value}, replacing an old value.
     *
     * @throws IllegalArgumentException for a negative key or value (they are the map's sentinels)
     */
    void put(long key, int value) {
        if (key < 0 || value < 0) {
            throw new IllegalArgumentException("keys and values must be non-negative: " + key + " -> " + value);
        }
        // Grow at a load of one half: linear probing stays short.
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        for (int i = slot(key); ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) {
                values[i] = value;
                return;
            }
            if (k == EMPTY) {
                keys[i] = key;
                values[i] = value;
                size++;
                return;
            }
        }
    }

    /** Removes {@code key}; returns its value, or {@link #ABSENT}. */
    int remove(long key) {
        int i = slot(key);
        while (keys[i] != key) {
            if (keys[i] == EMPTY) {
                return ABSENT;
            }
            i = (i + 1) & mask;
        }
        int old = values[i];
        // Backward shift: move later members of the probe run into the hole, so no tombstones pile up.
        int hole = i;
        for (int j = (i + 1) & mask; keys[j] != EMPTY; j = (j + 1) & mask) {
            int home = slot(keys[j]);
            boolean movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
            if (movable) {
                keys[hole] = keys[j];
                values[hole] = values[j];
                hole = j;
            }
        }
        keys[hole] = EMPTY;
        size--;
        return old;
    }

    private int slot(long key) {
        return (int) RandomStream.mix64(key) & mask;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        allocate(oldKeys.length * 2);
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldKeys[i] != EMPTY) {
                put(oldKeys[i], oldValues[i]);
            }
        }
    }
}
