package org.pagefabric.hw.iommu.aa;

import org.pagefabric.hw.os.Pte;

/**
 * The IOMMU's access log table (002 §3.2): a content-addressable memory of (IUID, base, head,
 * tail, size) tuples, one per IOMMU user domain, each naming an {@link AccessLog}. An IUID
 * belongs to at most one process (its owner domain), as a protection domain does in RDMA.
 */
public final class AccessLogTable {
    private final int capacity;
    private final AccessLog[] byIuid = new AccessLog[Pte.MAX_IUID + 1];
    private int entries;

    /** A table of {@code capacity} entries. */
    public AccessLogTable(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("the access log table needs at least one entry, got " + capacity);
        }
        this.capacity = capacity;
    }

    /**
     * Programs the entry of {@code log.iuid()}.
     *
     * @throws IllegalStateException if the IUID is taken or the table is full
     */
    public void program(AccessLog log) {
        if (byIuid[log.iuid()] != null) {
            throw new IllegalStateException("IUID " + log.iuid() + " already has an access log (owner domain "
                    + byIuid[log.iuid()].ownerDomain() + ")");
        }
        if (entries == capacity) {
            throw new IllegalStateException("the access log table's " + capacity + " entries are all in use");
        }
        byIuid[log.iuid()] = log;
        entries++;
    }

    /** Removes the entry of an IUID (the log's process ended). */
    public void remove(int iuid) {
        if (byIuid[iuid] != null) {
            byIuid[iuid] = null;
            entries--;
        }
    }

    /** The log of an IUID, or null. */
    public AccessLog lookup(int iuid) {
        return byIuid[iuid];
    }

    /** The lowest IUID without a log (1 and up: 0 means "no domain"), or -1 if none is free. */
    public int freeIuid() {
        if (entries == capacity) {
            return -1;
        }
        for (int i = 1; i < byIuid.length; i++) {
            if (byIuid[i] == null) {
                return i;
            }
        }
        return -1;
    }

    /** Entries in use. */
    public int entries() {
        return entries;
    }

    /** Entries the table has. */
    public int capacity() {
        return capacity;
    }
}
