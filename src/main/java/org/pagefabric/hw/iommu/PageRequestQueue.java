package org.pagefabric.hw.iommu;

/**
 * The IOMMU's queue of Page Requests (PCIe PRI): a ring of (PASID, address, access) entries in
 * arrival order, each visible from the instant it reaches the IOMMU, as the page-request queue
 * an IOMMU writes in memory and its driver reads (Linux hands each to the I/O page-fault queue,
 * drivers/iommu/io-pgfault.c). Primitive arrays: nothing is allocated per request.
 */
public final class PageRequestQueue {
    private final int[] pdid;
    private final long[] va;
    private final boolean[] write;
    private final boolean[] last;
    private final long[] arrives;
    private int head;
    private int size;

    /** A queue of {@code capacity} entries. */
    public PageRequestQueue(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("a page-request queue needs at least one entry, got " + capacity);
        }
        pdid = new int[capacity];
        va = new long[capacity];
        write = new boolean[capacity];
        last = new boolean[capacity];
        arrives = new long[capacity];
    }

    /**
     * Appends a request arriving at {@code arrivesPs} (not before the last one appended).
     *
     * @param lastInGroup whether it ends its Page Request Group (the OS answers a group once)
     * @return false if the queue is full
     */
    boolean append(long arrivesPs, int pasid, long address, boolean isWrite, boolean lastInGroup) {
        if (size == pdid.length) {
            return false;
        }
        int i = (head + size) % pdid.length;
        if (size > 0) {
            arrivesPs = Math.max(arrivesPs, arrives[(i + pdid.length - 1) % pdid.length]);
        }
        pdid[i] = pasid;
        va[i] = address;
        write[i] = isWrite;
        last[i] = lastInGroup;
        arrives[i] = arrivesPs;
        size++;
        return true;
    }

    /** Entries held, arrived or not. */
    public int size() {
        return size;
    }

    /** Whether the oldest entry has reached the IOMMU by {@code now}. */
    public boolean headArrived(long now) {
        return size > 0 && arrives[head] <= now;
    }

    /** The oldest entry's PASID (the process's domain). */
    public int headPasid() {
        return pdid[head];
    }

    /** The oldest entry's address. */
    public long headAddress() {
        return va[head];
    }

    /** Whether the oldest entry asks for write access. */
    public boolean headWrite() {
        return write[head];
    }

    /** Whether the oldest entry ends its Page Request Group. */
    public boolean headLast() {
        return last[head];
    }

    /** Free entries. */
    public int free() {
        return pdid.length - size;
    }

    /** When the oldest entry reached the IOMMU. */
    public long headArrivedPs() {
        return arrives[head];
    }

    /** Removes the oldest entry. */
    public void remove() {
        if (size == 0) {
            throw new IllegalStateException("the page-request queue is empty");
        }
        head = (head + 1) % pdid.length;
        size--;
    }
}
