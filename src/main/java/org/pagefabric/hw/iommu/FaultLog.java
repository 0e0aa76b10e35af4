package org.pagefabric.hw.iommu;

/**
 * The IOMMU's fault log: a ring buffer of fixed capacity in host memory that the IOMMU appends
 * to and the driver drains. When the ring is full the new entry is dropped and counted as an
 * overflow (the IOMMU does not wait for software). Entries are stored in primitive arrays;
 * {@link #poll()} builds a record for the (rare) reader.
 */
public final class FaultLog {
    private static final FaultReason[] REASONS = FaultReason.values();

    private final long[] time;
    private final long[] va;
    private final int[] pdid;
    /** Reason ordinal in bits 1.., write flag in bit 0. */
    private final int[] kind;
    private int head;
    private int size;
    private long appended;
    private long overflows;

    /** A log of {@code capacity} entries. */
    public FaultLog(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("fault log capacity must be positive, got " + capacity);
        }
        time = new long[capacity];
        va = new long[capacity];
        pdid = new int[capacity];
        kind = new int[capacity];
    }

    /**
     * Appends an entry.
     *
     * @return whether it was logged (false: the ring was full and the entry is lost)
     */
    public boolean append(long timePs, int domain, long address, boolean write, FaultReason reason) {
        if (size == time.length) {
            overflows++;
            return false;
        }
        int i = (head + size) % time.length;
        time[i] = timePs;
        va[i] = address;
        pdid[i] = domain;
        kind[i] = (reason.ordinal() << 1) | (write ? 1 : 0);
        size++;
        appended++;
        return true;
    }

    /** Removes and returns the oldest entry, or null if the log is empty. */
    public FaultRecord poll() {
        if (size == 0) {
            return null;
        }
        int i = head;
        FaultRecord r = new FaultRecord(time[i], pdid[i], va[i], (kind[i] & 1) != 0, REASONS[kind[i] >>> 1]);
        head = (head + 1) % time.length;
        size--;
        return r;
    }

    /** Entries waiting. */
    public int size() {
        return size;
    }

    /** Capacity in entries. */
    public int capacity() {
        return time.length;
    }

    /** Entries logged so far. */
    public long appended() {
        return appended;
    }

    /** Entries lost to a full log so far. */
    public long overflows() {
        return overflows;
    }
}
