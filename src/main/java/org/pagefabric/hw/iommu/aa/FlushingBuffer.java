package org.pagefabric.hw.iommu.aa;

/**
 * The IOMMU's flushing buffer (002 §3.6): a content-addressable memory of (address, IUID,
 * active, requester-ID, tag) tuples. A get of a registered flushing page is an active flush: the
 * IOMMU marks the entry active, keeps the get's requester and tag, and the log's processing
 * starts at once (whatever the notification threshold); the flush is complete once the CPU has
 * consumed every entry the log had reserved at that instant.
 */
public final class FlushingBuffer {
    private final int capacity;
    private final long[] pageVa;
    private final int[] iuid;
    private final boolean[] active;
    private final int[] requester;
    private final long[] tag;
    private final long[] untilEntry;
    private int used;

    /** A buffer of {@code capacity} entries. */
    public FlushingBuffer(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("the flushing buffer needs at least one entry, got " + capacity);
        }
        this.capacity = capacity;
        this.pageVa = new long[capacity];
        this.iuid = new int[capacity];
        this.active = new boolean[capacity];
        this.requester = new int[capacity];
        this.tag = new long[capacity];
        this.untilEntry = new long[capacity];
        java.util.Arrays.fill(this.iuid, -1);
    }

    /** Registers the flushing page at {@code pageVa} of domain {@code iuid}; returns its index. */
    public int register(long pageVa, int iuid) {
        for (int i = 0; i < capacity; i++) {
            if (this.iuid[i] < 0) {
                this.pageVa[i] = pageVa;
                this.iuid[i] = iuid;
                active[i] = false;
                requester[i] = 0;
                tag[i] = 0;
                used++;
                return i;
            }
        }
        throw new IllegalStateException("the flushing buffer's " + capacity + " entries are all in use");
    }

    /** The entry for a page of a domain, or -1. */
    public int find(long pageVa, int iuid) {
        for (int i = 0; i < capacity; i++) {
            if (this.iuid[i] == iuid && this.pageVa[i] == pageVa) {
                return i;
            }
        }
        return -1;
    }

    /** Marks entry {@code i} active for a get from {@code requester} with {@code tag}, until log entry {@code until}. */
    public void activate(int i, int requester, long tag, long until) {
        active[i] = true;
        this.requester[i] = requester;
        this.tag[i] = tag;
        untilEntry[i] = Math.max(untilEntry[i], until);
    }

    /** Whether entry {@code i} waits for its log to be processed. */
    public boolean active(int i) {
        return active[i];
    }

    /** The requester of entry {@code i}'s flush. */
    public int requester(int i) {
        return requester[i];
    }

    /** The tag of entry {@code i}'s flush. */
    public long tag(int i) {
        return tag[i];
    }

    /**
     * Completes entry {@code i}'s flush if the log has consumed {@code consumed} entries, at
     * least as many as it had reserved at the flush.
     *
     * @return whether the flush completed now
     */
    public boolean complete(int i, long consumed) {
        if (active[i] && consumed >= untilEntry[i]) {
            active[i] = false;
            return true;
        }
        return false;
    }

    /** The IUID of entry {@code i}, or -1 if the entry is free. */
    public int iuid(int i) {
        return iuid[i];
    }

    /** Entries the buffer has. */
    public int capacity() {
        return capacity;
    }

    /** Entries in use. */
    public int used() {
        return used;
    }
}
