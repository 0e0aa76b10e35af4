package org.pagefabric.sim.collect;

import java.util.Arrays;

/**
 * A map from {@code long} keys to non-null objects, kept in key order in two parallel arrays
 * ({@link LongLongSortedMap} is the same for {@code long} values):
 * lookups are binary searches that box nothing and allocate nothing, and entries are reached by
 * position, so a caller walks neighbours (the range below an address, the ranges overlapping an
 * interval) with an index instead of an iterator. Inserting and removing shift the entries
 * after the position, O(n): meant for the address indexes of a process (VMAs, pinned or
 * registered ranges), which are looked up far more often than they change.
 *
 * <p>Positions run from 0 to {@link #size()} - 1 in ascending key order; any insertion or
 * removal moves the positions after it.
 *
 * @param <V> the value type
 */
public final class LongSortedMap<V> extends SortedLongKeys {
    private Object[] values = new Object[8];

    /** An empty map with room for 8 entries before it grows. */
    public LongSortedMap() {
    }

    /** The value at position {@code i}. */
    @SuppressWarnings("unchecked")
    public V value(int i) {
        checkPosition(i);
        return (V) values[i];
    }

    /** The value of {@code key}, or {@code null}. */
    @SuppressWarnings("unchecked")
    public V get(long key) {
        int i = search(key);
        return i >= 0 ? (V) values[i] : null;
    }

    /** Whether {@code key} is in the map. */
    public boolean containsKey(long key) {
        return search(key) >= 0;
    }

    /**
     * Maps {@code key} to {@code value}, replacing an old value.
     *
     * @return the old value, or {@code null}
     * @throws NullPointerException for a null value (null is the answer for an absent key)
     */
    @SuppressWarnings("unchecked")
    public V put(long key, V value) {
        if (value == null) {
            throw new NullPointerException("null value for key " + key);
        }
        int i = search(key);
        if (i >= 0) {
            V old = (V) values[i];
            values[i] = value;
            return old;
        }
        i = -i - 1;
        insertKeyAt(i, key);
        values[i] = value;
        return null;
    }

    /** Removes {@code key}; returns its value, or {@code null} if it was absent. */
    public V remove(long key) {
        int i = search(key);
        return i >= 0 ? removeAt(i) : null;
    }

    /** Removes the entry at position {@code i} and returns its value. */
    @SuppressWarnings("unchecked")
    public V removeAt(int i) {
        checkPosition(i);
        V old = (V) values[i];
        removeKeyAt(i);
        values[size()] = null;
        return old;
    }

    /** Removes every entry. */
    public void clear() {
        Arrays.fill(values, 0, size(), null);
        clearKeys();
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
