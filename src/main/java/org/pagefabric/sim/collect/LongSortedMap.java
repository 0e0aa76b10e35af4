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
public final class LongSortedMap<V> {
    private long[] keys;
    private Object[] values;
    private int size;

    /** An empty map with room for 8 entries before it grows. */
    public LongSortedMap() {
        keys = new long[8];
        values = new Object[8];
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
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            values = Arrays.copyOf(values, size * 2);
        }
        System.arraycopy(keys, i, keys, i + 1, size - i);
        System.arraycopy(values, i, values, i + 1, size - i);
        keys[i] = key;
        values[i] = value;
        size++;
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
        System.arraycopy(keys, i + 1, keys, i, size - i - 1);
        System.arraycopy(values, i + 1, values, i, size - i - 1);
        size--;
        values[size] = null;
        return old;
    }

    /** Removes every entry. */
    public void clear() {
        Arrays.fill(values, 0, size, null);
        size = 0;
    }

    /** The position of {@code key}, or {@code -(insertion point) - 1}, as {@link Arrays#binarySearch}. */
    private int search(long key) {
        return Arrays.binarySearch(keys, 0, size, key);
    }

    private void checkPosition(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("position " + i + " of " + size);
        }
    }
}
