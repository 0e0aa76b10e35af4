package org.pagefabric.hw.iommu.aa;

/**
 * The IOMMU's packet tag buffer (002 §3.7), a small content-addressable memory: for each access
 * in progress, keyed by (device, transaction tag), the access log entry its packets go to and
 * the bytes still to come. It reassembles the packets of interleaved multi-packet accesses from
 * several devices into their own entries, and matches the read replies flowing back to the
 * device with the requests that asked for them (replies carry only the tag, not the address).
 */
public final class TagBuffer {
    private final int capacity;
    private final int[] device;
    private final long[] tag;
    private final AccessLog[] log;
    private final int[] slot;
    private final int[] remaining;
    private final long[] firstVa;
    private int used;
    private long overflows;

    /** A buffer of {@code capacity} entries. */
    public TagBuffer(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("the tag buffer needs at least one entry, got " + capacity);
        }
        this.capacity = capacity;
        this.device = new int[capacity];
        this.tag = new long[capacity];
        this.log = new AccessLog[capacity];
        this.slot = new int[capacity];
        this.remaining = new int[capacity];
        this.firstVa = new long[capacity];
    }

    /** The index of the entry of (device, tag), or -1. */
    public int find(int device, long tag) {
        for (int i = 0; i < capacity; i++) {
            if (log[i] != null && this.device[i] == device && this.tag[i] == tag) {
                return i;
            }
        }
        return -1;
    }

    /** Whether an entry is free. */
    public boolean hasRoom() {
        return used < capacity;
    }

    /**
     * Adds the entry of an access whose first packet arrived.
     *
     * @return its index, or -1 if the buffer is full (counted; the access waits)
     */
    public int add(int device, long tag, AccessLog log, int slot, int bytes, long firstVa) {
        for (int i = 0; i < capacity; i++) {
            if (this.log[i] == null) {
                this.device[i] = device;
                this.tag[i] = tag;
                this.log[i] = log;
                this.slot[i] = slot;
                this.remaining[i] = bytes;
                this.firstVa[i] = firstVa;
                used++;
                return i;
            }
        }
        overflows++;
        return -1;
    }

    /** The log of entry {@code i}. */
    public AccessLog log(int i) {
        return log[i];
    }

    /** The log slot of entry {@code i}. */
    public int slot(int i) {
        return slot[i];
    }

    /** The first address of the access of entry {@code i}. */
    public long firstVa(int i) {
        return firstVa[i];
    }

    /**
     * Counts {@code bytes} of entry {@code i} as arrived; removes the entry after its last byte.
     *
     * @return whether the access is complete
     */
    public boolean arrived(int i, int bytes) {
        remaining[i] -= bytes;
        if (remaining[i] <= 0) {
            log[i] = null;
            used--;
            return true;
        }
        return false;
    }

    /** Entries in use. */
    public int used() {
        return used;
    }

    /** Accesses that found the buffer full. */
    public long overflows() {
        return overflows;
    }
}
