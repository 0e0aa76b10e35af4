package org.pagefabric.sim;

/**
 * An open-addressing hash map from {@code long} keys to non-null objects, with linear probing and
 * backward-shift deletion: O(1) on average, no boxed key and no allocation except when it grows.
 * Hardware models look up in-flight messages by id on every packet, where a {@code HashMap<Long, V>}
 * would box the key (and allocate a node) per lookup.
 *
 * <p>It has no iteration, on purpose: results must not depend on hash order.
 *
 * @param <V> the value type
 */
public final class LongObjectMap<V> {
    private long[] keys;
    private Object[] values;
    private int mask;
    private int size;

    /** A map sized for about {@code expected} entries before it grows. */
    public LongObjectMap(int expected) {
        allocate(Integer.highestOneBit(Math.max(4, expected) * 2 - 1) << 1);
    }

    private void allocate(int capacity) {
        keys = new long[capacity];
        values = new Object[capacity];
        mask = capacity - 1;
    }

    /** Entries held. */
    public int size() {
        return size;
    }

    /** The value of {@code key}, or {@code null}. */
    @SuppressWarnings("unchecked")
    public V get(long key) {
        for (int i = slot(key); values[i] != null; i = (i + 1) & mask) {
            if (keys[i] == key) {
                return (V) values[i];
            }
        }
        return null;
    }

    /**
     * Maps {@code key} to {@code value}, replacing an old value.
     *
     * @return the old value, or {@code null}
     * @throws NullPointerException for a null value (null marks an empty slot)
     */
    @SuppressWarnings("unchecked")
    public V put(long key, V value) {
        if (value == null) {
            throw new NullPointerException("null value for key " + key);
        }
        // Grow at a load of one half: linear probing stays short.
        if ((size + 1) * 2 > keys.length) {
            grow();
        }
        int i = slot(key);
        for (; values[i] != null; i = (i + 1) & mask) {
            if (keys[i] == key) {
                V old = (V) values[i];
                values[i] = value;
                return old;
            }
        }
        keys[i] = key;
        values[i] = value;
        size++;
        return null;
    }

    /** Removes {@code key}; returns its value, or {@code null}. */
    @SuppressWarnings("unchecked")
    public V remove(long key) {
        int i = slot(key);
        while (values[i] != null && keys[i] != key) {
            i = (i + 1) & mask;
        }
        if (values[i] == null) {
            return null;
        }
        V old = (V) values[i];
        // Backward shift: move later members of the probe run into the hole, so no tombstones pile up.
        int hole = i;
        for (int j = (i + 1) & mask; values[j] != null; j = (j + 1) & mask) {
            int home = slot(keys[j]);
            boolean movable = hole <= j ? (home <= hole || home > j) : (home <= hole && home > j);
            if (movable) {
                keys[hole] = keys[j];
                values[hole] = values[j];
                hole = j;
            }
        }
        values[hole] = null;
        size--;
        return old;
    }

    private int slot(long key) {
        return (int) RandomStream.mix64(key) & mask;
    }

    private void grow() {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        allocate(oldKeys.length * 2);
        size = 0;
        for (int i = 0; i < oldKeys.length; i++) {
            if (oldValues[i] != null) {
                insertFresh(oldKeys[i], oldValues[i]);
            }
        }
    }

    private void insertFresh(long key, Object value) {
        int i = slot(key);
        while (values[i] != null) {
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        size++;
    }
}
