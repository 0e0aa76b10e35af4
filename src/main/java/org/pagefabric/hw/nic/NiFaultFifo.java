package org.pagefabric.hw.nic;

/**
 * The NI FIFO of PART (000 §IV, Fig. 6): every DMA access the IOMMU refused (an AXI NACK) is
 * logged here with what software needs to resolve the fault and to ask the source for the
 * failed block again. The fault tasklet reads the entries ({@link #poll}); a full FIFO logs
 * nothing more until it is read, and the caller then falls back on the source's time-out.
 *
 * <p>Entries live in primitive arrays of a fixed capacity: logging allocates nothing.
 */
public final class NiFaultFifo {
    private final int capacity;
    private final int[] qpn;
    private final int[] pdid;
    private final int[] block;
    private final long[] messageId;
    private final long[] messageAddress;
    private final long[] messageLength;
    private final long[] faultAddress;
    private final boolean[] write;
    private final long[] loggedPs;
    private int head;
    private int size;
    private long logged;
    private long overflows;

    /** A FIFO of {@code capacity} entries. */
    public NiFaultFifo(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("NI fault FIFO needs a positive capacity, got " + capacity);
        }
        this.capacity = capacity;
        qpn = new int[capacity];
        pdid = new int[capacity];
        block = new int[capacity];
        messageId = new long[capacity];
        messageAddress = new long[capacity];
        messageLength = new long[capacity];
        faultAddress = new long[capacity];
        write = new boolean[capacity];
        loggedPs = new long[capacity];
    }

    /**
     * Logs one refused access.
     *
     * @param qpn            the queue pair whose message it was
     * @param pdid           the protection domain (IOMMU context) of the access
     * @param messageId      the transport's message id
     * @param block          the block of the message the packet belongs to
     * @param messageAddress first virtual address of the message's buffer on this node
     * @param messageLength  bytes of the message
     * @param faultAddress   the virtual address that faulted
     * @param write          a destination write (true) or a source read (false)
     * @param nowPs          the time of the fault
     * @return false if the FIFO was full and nothing was logged
     */
    public boolean log(int qpn, int pdid, long messageId, int block, long messageAddress, long messageLength,
                       long faultAddress, boolean write, long nowPs) {
        if (size == capacity) {
            overflows++;
            return false;
        }
        int i = (head + size) % capacity;
        this.qpn[i] = qpn;
        this.pdid[i] = pdid;
        this.messageId[i] = messageId;
        this.block[i] = block;
        this.messageAddress[i] = messageAddress;
        this.messageLength[i] = messageLength;
        this.faultAddress[i] = faultAddress;
        this.write[i] = write;
        this.loggedPs[i] = nowPs;
        size++;
        logged++;
        return true;
    }

    /** Entries waiting to be read. */
    public int size() {
        return size;
    }

    /** Entries the FIFO holds at most. */
    public int capacity() {
        return capacity;
    }

    /** Entries logged so far. */
    public long logged() {
        return logged;
    }

    /** Refused accesses not logged because the FIFO was full. */
    public long overflows() {
        return overflows;
    }

    /**
     * Reads the oldest entry into {@code out} and removes it.
     *
     * @return false if the FIFO is empty
     */
    public boolean poll(Entry out) {
        if (size == 0) {
            return false;
        }
        int i = head;
        out.qpn = qpn[i];
        out.pdid = pdid[i];
        out.messageId = messageId[i];
        out.block = block[i];
        out.messageAddress = messageAddress[i];
        out.messageLength = messageLength[i];
        out.faultAddress = faultAddress[i];
        out.write = write[i];
        out.loggedPs = loggedPs[i];
        head = (head + 1) % capacity;
        size--;
        return true;
    }

    /** One entry as read by software, in a holder the reader reuses. */
    public static final class Entry {
        /** The queue pair whose message it was. */
        public int qpn;
        /** The protection domain (IOMMU context). */
        public int pdid;
        /** The transport's message id. */
        public long messageId;
        /** The block of the message. */
        public int block;
        /** First virtual address of the message's buffer on this node. */
        public long messageAddress;
        /** Bytes of the message. */
        public long messageLength;
        /** The virtual address that faulted. */
        public long faultAddress;
        /** A destination write (true) or a source read (false). */
        public boolean write;
        /** When the fault was logged. */
        public long loggedPs;
    }
}
