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
public final class LongLongSortedMap extends SortedLongKeys {
    private final long missingValue;
    private long[] values = new long[8];

    /** An empty map that answers {@code missingValue} for an absent key. */
    public LongLongSortedMap(long missingValue) {
        this.missingValue = missingValue;
    }

    /** The value {@link #get} and {@link #remove} give for an absent key. */
    public long missingValue() {
        return missingValue;
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
        insertKeyAt(i, key);
        values[i] = value;
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
        removeKeyAt(i);
        return old;
    }

    @Override
    void growValues(int capacity) {
        values = Arrays.copyOf(values, capacity);
    }

    @Override
    void moveValues(int from, int to, int length) {
        System.arraycopy(values, from, values, to, length);
    }
}
