package org.pagefabric.workload.dht;

import org.pagefabric.sim.RandomStream;

/**
 * One process's part of the distributed hashtable (002 §4.1, Listing 2): a table of
 * {@code tableCells} cells and an overflow heap of {@code heapCells} cells after it, each cell an
 * element word and a next-pointer word; a next-free-cell counter for the heap and, per table
 * position, a pointer to the most recently inserted overflow element. The words live in a
 * sparse {@link CellMap}: only touched cells cost memory.
 *
 * <p>Remote schemes operate on words by address ({@link #address}) through {@link #cas},
 * {@link #fetchAndAdd}, {@link #swap}, {@link #read} and {@link #write}, exactly the operations a
 * NIC's atomic unit or a DMA write performs; handler-based schemes call {@link #localInsert}.
 */
public final class Volume {
    /** Word of a cell holding its element. */
    public static final int ELEM = 0;
    /** Word of a cell holding the index of the next element in its chain (0: none). */
    public static final int PTR = 1;
    /** The volume's next-free-cell counter (cell index ignored). */
    public static final int NEXT_FREE = 2;
    /** Per table position: the most recently inserted overflow cell of its chain. */
    public static final int LAST_PTR = 3;

    private final int owner;
    private final long tableCells;
    private final long capacity;
    private final CellMap words = new CellMap();
    private long collisions;
    private long overflows;

    /**
     * @param owner      the process owning the volume
     * @param tableCells cells of the table (002 §5.2.1: 2^21)
     * @param heapCells  cells of the overflow heap
     */
    public Volume(int owner, long tableCells, long heapCells) {
        this.owner = owner;
        this.tableCells = tableCells;
        this.capacity = tableCells + heapCells;
    }

    /** The address of word {@code field} of cell {@code cell}. */
    public static long address(long cell, int field) {
        return cell << 2 | field;
    }

    /** The owning process. */
    public int owner() {
        return owner;
    }

    /** Cells of the table. */
    public long tableCells() {
        return tableCells;
    }

    /** Cells of table and heap together: a free cell at or beyond this is an overflow. */
    public long capacity() {
        return capacity;
    }

    /** The word at {@code address}. */
    public long read(long address) {
        return stored(address, words.get(address));
    }

    /** Writes the word at {@code address}. */
    public void write(long address, long value) {
        words.put(address, toStore(address, value));
    }

    /** Compare-and-swap: if the word is {@code compare} it becomes {@code swap}; returns the old word. */
    public long cas(long address, long compare, long swap) {
        int slot = words.slot(address);
        long old = stored(address, words.valueAt(slot));
        if (old == compare) {
            words.putAt(slot, address, toStore(address, swap));
        }
        return old;
    }

    /** Fetch-and-op SUM: adds {@code value}; returns the old word. */
    public long fetchAndAdd(long address, long value) {
        int slot = words.slot(address);
        long old = stored(address, words.valueAt(slot));
        words.putAt(slot, address, toStore(address, old + value));
        return old;
    }

    /** Fetch-and-op REPLACE: stores {@code value}; returns the old word. */
    public long swap(long address, long value) {
        int slot = words.slot(address);
        long old = stored(address, words.valueAt(slot));
        words.putAt(slot, address, toStore(address, value));
        return old;
    }

    /** The next-free counter is stored relative to the heap's start, so that an untouched one reads the table's end. */
    private long stored(long address, long raw) {
        return (address & 3) == NEXT_FREE ? tableCells + raw : raw;
    }

    private long toStore(long address, long value) {
        return (address & 3) == NEXT_FREE ? value - tableCells : value;
    }

    /** A table collision happened on this volume (counted by whoever inserts). */
    public void countCollision() {
        collisions++;
    }

    /** An insert found the heap full; its element is lost and verification will say so. */
    public void countOverflow() {
        overflows++;
    }

    /** Inserts whose table cell was taken. */
    public long collisions() {
        return collisions;
    }

    /** Inserts lost because the heap was full. */
    public long overflows() {
        return overflows;
    }

    /**
     * Listing 2's insert done by a local core (Listing 3's {@code local_insert}): the same
     * compare-and-swap, fetch-and-adds, writes and pointer updates, as plain memory accesses.
     *
     * @return the memory accesses it made
     */
    public int localInsert(long elem) {
        long pos = DhtHash.position(elem);
        if (cas(address(pos, ELEM), 0, elem) == 0) {
            return 1;
        }
        countCollision();
        long free = fetchAndAdd(address(0, NEXT_FREE), 1);
        if (free >= capacity) {
            countOverflow();
            return 2;
        }
        write(address(free, ELEM), elem);
        long prev = swap(address(pos, LAST_PTR), free);
        if (cas(address(pos, PTR), 0, free) != 0) {
            write(address(prev, PTR), free);
            return 6;
        }
        return 5;
    }

    /**
     * What the volume holds: elements stored, the sum of their mixed values (a multiset digest)
     * and elements in the wrong place (another volume's, or a table cell that is not their
     * hash position). Every cell is scanned, so an element reachable from no chain still counts.
     */
    public Content content() {
        long[] acc = new long[3];
        words.forEach((address, value) -> {
            if ((address & 3) == ELEM && value != 0) {
                long cell = address >>> 2;
                acc[0]++;
                acc[1] += RandomStream.mix64(value);
                if (DhtHash.owner(value) != owner || cell < tableCells && DhtHash.position(value) != cell
                        || cell >= capacity) {
                    acc[2]++;
                }
            }
            return 0;
        });
        return new Content(acc[0], acc[1], acc[2]);
    }

    /**
     * @param elements  elements stored
     * @param digest    sum of {@link RandomStream#mix64} of the elements
     * @param misplaced elements that are not where their hash says
     */
    public record Content(long elements, long digest, long misplaced) {
    }
}
