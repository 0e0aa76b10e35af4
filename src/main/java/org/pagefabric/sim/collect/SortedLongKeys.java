package org.pagefabric.sim.collect;

import java.util.Arrays;

/**
 * The key half of a map kept in key order in parallel arrays: the sorted {@code long} keys,
 * binary search and positions. A subclass holds the values in an array of its own type and
 * moves them as the keys move.
 */
abstract class SortedLongKeys {
    private long[] keys = new long[8];
    private int size;

    /** Entries held. */
    public final int size() {
        return size;
    }

    /** Whether the map holds no entry. */
    public final boolean isEmpty() {
        return size == 0;
    }

    /** The key at position {@code i}. */
    public final long key(int i) {
        checkPosition(i);
        return keys[i];
    }

    /** The position of the greatest key at most {@code key}, or -1 if every key is greater. */
    public final int floorIndex(long key) {
        int i = search(key);
        return i >= 0 ? i : -i - 2;
    }

    /** The position of the least key at least {@code key}, or {@link #size()} if every key is smaller. */
    public final int ceilingIndex(long key) {
        int i = search(key);
        return i >= 0 ? i : -i - 1;
    }

    /** The position of {@code key}, or {@code -(insertion point) - 1}, as {@link Arrays#binarySearch}. */
    final int search(long key) {
        return Arrays.binarySearch(keys, 0, size, key);
    }

    /** Opens position {@code i} for {@code key}, moving the later entries up; the caller stores the value. */
    final void insertKeyAt(int i, long key) {
        if (size == keys.length) {
            keys = Arrays.copyOf(keys, size * 2);
            growValues(size * 2);
        }
        System.arraycopy(keys, i, keys, i + 1, size - i);
        moveValues(i, i + 1, size - i);
        keys[i] = key;
        size++;
    }

    /** Closes position {@code i}, moving the later entries down; the caller read the value first. */
    final void removeKeyAt(int i) {
        System.arraycopy(keys, i + 1, keys, i, size - i - 1);
        moveValues(i + 1, i, size - i - 1);
        size--;
    }

    /** Empties the keys. */
    final void clearKeys() {
        size = 0;
    }

    final void checkPosition(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("position " + i + " of " + size);
        }
    }

    /** Grows the value array to {@code capacity}, keeping its contents. */
    abstract void growValues(int capacity);

    /** Moves {@code length} values from position {@code from} to position {@code to}. */
    abstract void moveValues(int from, int to, int length);
}
