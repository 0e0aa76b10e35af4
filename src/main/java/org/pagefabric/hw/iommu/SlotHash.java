package org.pagefabric.hw.iommu;

import java.util.Arrays;
import org.pagefabric.sim.RandomStream;

/**
 * The key-to-slot index of a wide cache level: open addressing with linear probing over slot
 * numbers, the keys themselves staying in the level's {@code keys} array (a table entry holds a
 * slot, and a probe compares {@code keys[slot]}). Removal shifts later entries of the cluster
 * back instead of leaving tombstones, so probes stay short however often entries churn.
 */
final class SlotHash {
    private static final int EMPTY = -1;

    private final int[] table;
    private final int mask;

    /** An index for up to {@code slots} keys, at most half full. */
    SlotHash(int slots) {
        int size = Integer.highestOneBit(Math.max(2, slots) * 2 - 1) << 1;
        table = new int[size];
        mask = size - 1;
        Arrays.fill(table, EMPTY);
    }

    private int home(long key) {
        return (int) RandomStream.mix64(key) & mask;
    }

    /** The slot holding {@code key}, or -1. */
    int find(long key, long[] keys) {
        for (int i = home(key); ; i = (i + 1) & mask) {
            int slot = table[i];
            if (slot == EMPTY) {
                return -1;
            }
            if (keys[slot] == key) {
                return slot;
            }
        }
    }

    /** Indexes {@code key} (absent) at {@code slot}, where {@code keys[slot] == key}. */
    void add(long key, int slot, long[] keys) {
        int i = home(key);
        while (table[i] != EMPTY) {
            i = (i + 1) & mask;
        }
        table[i] = slot;
    }

    /** Removes {@code key} (present, still in {@code keys}) from the index. */
    void remove(long key, long[] keys) {
        int i = home(key);
        while (keys[table[i]] != key) {
            i = (i + 1) & mask;
        }
        // backward shift: move up every later entry of the cluster whose home is not between
        // the hole and it, so that no probe for it crosses an empty entry
        int hole = i;
        for (int j = (hole + 1) & mask; table[j] != EMPTY; j = (j + 1) & mask) {
            int h = home(keys[table[j]]);
            boolean stays = hole <= j ? hole < h && h <= j : hole < h || h <= j;
            if (!stays) {
                table[hole] = table[j];
                hole = j;
            }
        }
        table[hole] = EMPTY;
    }
}
