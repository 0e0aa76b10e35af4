package org.pagefabric.workload.dht;

import java.util.Arrays;
import java.util.function.LongBinaryOperator;
import org.pagefabric.sim.RandomStream;

/**
 * A sparse word-addressed memory: open addressing from a non-negative address to a 64-bit word,
 * absent words reading 0. A DHT volume of 2^21 cells touched in a few places costs what it
 * touched, so 32 768 volumes fit in a heap. Primitive arrays only: no boxing per access.
 *
 * <p>Placement: an address is a cell and a field ({@code cell << 2 | field}); the probe starts
 * at the cell's hash plus the field, so the words of one cell (an element, its chain pointer,
 * its last pointer) sit side by side and a collision's several accesses to a cell share a cache
 * line instead of missing once per word. Read-modify-write operations find their word once
 * ({@link #slot}, {@link #valueAt}, {@link #putAt}).
 */
final class CellMap {
    private static final long EMPTY = -1L;

    // key at 2i, value at 2i+1: a probe reads one cache line, not one in each of two arrays
    private long[] slots;
    private int mask;
    private int size;

    CellMap() {
        slots = new long[16];
        mask = 7;
        Arrays.fill(slots, EMPTY);
    }

    /** The word at {@code address}, 0 if never written. */
    long get(long address) {
        return valueAt(slot(address));
    }

    /** Writes the word at {@code address}. */
    void put(long address, long value) {
        putAt(slot(address), address, value);
    }

    /**
     * Where {@code address}'s word is, or the free place it would take: valid for
     * {@link #valueAt} and {@link #putAt} of the same address until the next write.
     */
    int slot(long address) {
        int i = (int) ((RandomStream.mix64(address >>> 2) + (address & 3)) & mask);
        long k;
        while ((k = slots[2 * i]) != EMPTY && k != address) {
            i = (i + 1) & mask;
        }
        return 2 * i;
    }

    /** The word at a {@link #slot}, 0 if never written. */
    long valueAt(int slot) {
        return slots[slot] == EMPTY ? 0L : slots[slot + 1];
    }

    /** Writes {@code address}'s word at the {@link #slot} found for it. */
    void putAt(int slot, long address, long value) {
        if (slots[slot] == EMPTY) {
            slots[slot] = address;
            slots[slot + 1] = value;
            size++;
            if (size * 4 > (mask + 1) * 3) {
                grow();
            }
            return;
        }
        slots[slot + 1] = value;
    }

    /** Words written so far (including words written back to 0). */
    int size() {
        return size;
    }

    /** Calls {@code visit(address, value)} for every written word, in table order. */
    void forEach(LongBinaryOperator visit) {
        for (int i = 0; i < slots.length; i += 2) {
            if (slots[i] != EMPTY) {
                visit.applyAsLong(slots[i], slots[i + 1]);
            }
        }
    }

    private void grow() {
        long[] old = slots;
        slots = new long[old.length * 2];
        mask = (mask << 1) | 1;
        Arrays.fill(slots, EMPTY);
        for (int j = 0; j < old.length; j += 2) {
            if (old[j] != EMPTY) {
                int i = slot(old[j]);
                slots[i] = old[j];
                slots[i + 1] = old[j + 1];
            }
        }
    }
}
