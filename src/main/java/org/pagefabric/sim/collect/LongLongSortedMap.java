package org.pagefabric.sim.collect;

import java.util.Arrays;

/**
 * A map from {@code long} keys to {@code long} values, kept in key order in two parallel arrays:
 * {@link LongSortedMap} for primitive values, so that neither keys nor values are boxed (a free
 * list of address ranges, start to length). Lookups are binary searches; inserting and removing
 * shift the entries after the position, O(n).
 *
 * <p>Positions run from 0 to {@link #size()} - 1 in ascending key order; any insertion or
 * removal moves the positions after it. An absent key reads as the map's missing value, which
 * therefore cannot be stored.
 */
public final class LongLongSortedMap {
    private final long missingValue;
    private long[] keys;
    private long[] values;
    private int size;

    /** An empty map that answers {@code missingValue} for an absent key. */
    public LongLongSortedMap(long missingValue) {
        this.missingValue = missingValue;
        keys = new long[8];
        values = new long[8];
    }

    /** The value {@link #get} and {@link #remove} give for an absent key. */
    public long missingValue() {
        return missingValue;
    }

    /** Entries held. */
    public int size() {
        return size;
    }

    /** Whether the map holds no entry. */
    public boolean isEmpty() {
        return size == 0;
    }

    /** The key at position {@code i}. */
    public long key(int i) {
        checkPosition(i);
        return keys[i];
    }

    /** The value at position {@code i}. */
    public long value(int i) {
        checkPosition(i);
        return values[i];
    }

    /** The value of {@code key}, or the missing value. */
    public long get(long key) {
        int i = search(key);
        return i >= 0 ? values[i] : missingValue;
    }

    /** The position of the greatest key at most {@code key}, or -1 if every key is greater. */
    public int floorIndex(long key) {
        int i = search(key);
        return i >= 0 ? i : -i - 2;
    }

    /** The position of the least key at least {@code key}, or {@link #size()} if every key is smaller. */
    public int ceilingIndex(long key) {
        int i = search(key);
        return i >= 0 ? i : -i - 1;
    }

    /**
     * Maps {@code key} to {@code value}, replacing an old value.
     *
     * @return the old value, or the missing value
     * @throws IllegalArgumentException if {@code value} is the missing value
     */
    public long put(long key, long value) {
        if (value == missingValue) {
            throw new IllegalArgumentException("the missing value " + value + " cannot be stored (key " + key + ")");
        }
        int i = search(key);
        if (i >= 0) {
            long old = values[i];
            values[i] = value;
            return old;
        }
        i = -i - 1;
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        System.arraycopy(keys, i, keys, i + 1, size - i);
        System.arraycopy(values, i, values, i + 1, size - i);
        keys[i] = key;
        values[i] = value;
        size++;
        return missingValue;
    }

    /** Removes {@code key}; returns its value, or the missing value if it was absent. */
    public long remove(long key) {
        int i = search(key);
        return i >= 0 ? removeAt(i) : missingValue;
    }

    /** Removes the entry at position {@code i} and returns its value. */
    public long removeAt(int i) {
        checkPosition(i);
        long old = values[i];
        System.arraycopy(keys, i + 1, keys, i, size - i - 1);
        System.arraycopy(values, i + 1, values, i, size - i - 1);
        size--;
        return old;
    }

    private int search(long key) {
        return Arrays.binarySearch(keys, 0, size, key);
    }

    private void checkPosition(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("position " + i + " of " + size);
        }
    }
}
