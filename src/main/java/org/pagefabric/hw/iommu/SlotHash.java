package org.pagefabric.hw.iommu;

import java.util.Arrays;
import org.pagefabric.sim.RandomStream;

/**
 * The key-to-slot index of a wide cache level: open addressing with linear probing over slot
 * numbers, the keys themselves staying in the level's {@code keys} array. A table entry holds a
 * slot and the low 32 bits of its key's hash, so that a probe reads only the table: the level's
 * keys are read once, to confirm a hash that matches, and a lookup that misses (most of them, in
 * a large address space) never reads them. Removal shifts later entries of the cluster back
 * instead of leaving tombstones, so probes stay short however often entries churn.
 */
final class SlotHash {
    private static final long EMPTY = -1L;
    private static final long SLOT_MASK = 0xFFFF_FFFFL;

    // hash in the high half, slot in the low half; EMPTY has an all-ones slot, never a real one
    private final long[] table;
    private final int mask;

    /** An index for up to {@code slots} keys, at most half full. */
    SlotHash(int slots) {
        int size = Integer.highestOneBit(Math.max(2, slots) * 2 - 1) << 1;
        table = new long[size];
        mask = size - 1;
        Arrays.fill(table, EMPTY);
    }

    private static int hash(long key) {
        return (int) RandomStream.mix64(key);
    }

    private static int slotOf(long entry) {
        return (int) (entry & SLOT_MASK);
    }

    private static int hashOf(long entry) {
        return (int) (entry >>> 32);
    }

    /** The slot holding {@code key}, or -1. */
    int find(long key, long[] keys) {
        int h = hash(key);
        for (int i = h & mask; ; i = (i + 1) & mask) {
            long e = table[i];
            if (e == EMPTY) {
                return -1;
            }
            if (hashOf(e) == h && keys[slotOf(e)] == key) {
                return slotOf(e);
            }
        }
    }

    /** Indexes {@code key} (absent) at {@code slot}, where {@code keys[slot] == key}. */
    void add(long key, int slot, long[] keys) {
        int h = hash(key);
        int i = h & mask;
        while (table[i] != EMPTY) {
            i = (i + 1) & mask;
        }
        table[i] = (long) h << 32 | slot;
    }

    /** Removes {@code key} (present, still in {@code keys}) from the index. */
    void remove(long key, long[] keys) {
        int h = hash(key);
        int i = h & mask;
        while (hashOf(table[i]) != h || keys[slotOf(table[i])] != key) {
            i = (i + 1) & mask;
        }
        // backward shift: move up every later entry of the cluster whose home is not between
        // the hole and it, so that no probe for it crosses an empty entry
        int hole = i;
        for (int j = (hole + 1) & mask; table[j] != EMPTY; j = (j + 1) & mask) {
            int home = hashOf(table[j]) & mask;
            boolean stays = hole <= j ? hole < home && home <= j : hole < home || home <= j;
            if (!stays) {
                table[hole] = table[j];
                hole = j;
            }
        }
        table[hole] = EMPTY;
    }
}
