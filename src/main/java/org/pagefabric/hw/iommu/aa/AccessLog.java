package org.pagefabric.hw.iommu.aa;

/**
 * An access log (002 §3.2): a circular ring buffer in the owning process's address space into
 * which the IOMMU appends the entries of the accesses a page's bits select, and from which the
 * process's handlers consume them.
 *
 * <p>The ring holds {@link #size()} bytes starting at virtual address {@link #baseVa()}; an entry
 * takes {@link #HEADER_BYTES} of metadata plus its data rounded up to 8 bytes. Three pointers, as
 * in the access log table's tuple (IUID, base, head, tail, size):
 * <ul>
 *   <li><b>reserve</b> (the IOMMU's internal write pointer): an access's first packet reserves
 *       the room of the <em>whole</em> access, so packets of interleaved accesses land in their
 *       own entries and leave holes in the others (002 §3.7);
 *   <li><b>tail</b> ({@link #committed()}): advanced only over entries whose every byte has
 *       arrived, so the CPU never sees a hole;
 *   <li><b>head</b> ({@link #consumed()}): advanced by the CPU as it consumes entries; room is
 *       freed only here.
 * </ul>
 * A reservation that does not fit is refused ({@link #reserve} returns -1): the IOMMU applies
 * backpressure and the access is retried later, so nothing is ever overwritten or dropped.
 */
public final class AccessLog {
    /** Bytes of an entry's metadata (kind, IUID, device, tag, address, length). */
    public static final int HEADER_BYTES = 32;

    private final int iuid;
    private final int ownerDomain;
    private final long baseVa;
    private final int size;
    private final byte[] ring;
    private final int slots;
    private final int[] kind;
    private final int[] device;
    private final long[] tag;
    private final long[] va;
    private final int[] length;
    private final int[] dataOffset;
    private final int[] footprint;
    private final int[] missing;
    private final boolean[] tagged;
    private final long[] contentTag;
    private final long[] tagPosition;
    private long reserved;
    private long committed;
    private long consumed;
    private int writeOffset;
    private int usedBytes;
    private long stalls;

    /**
     * @param iuid        the IOMMU user domain the log serves
     * @param ownerDomain the protection domain (process) that owns the log: only its pages may
     *                    name this IUID
     * @param baseVa      the ring's first virtual address in the owner's address space
     * @param size        the ring's bytes, at least one header
     */
    public AccessLog(int iuid, int ownerDomain, long baseVa, int size) {
        if (size < HEADER_BYTES) {
            throw new IllegalArgumentException("an access log needs at least " + HEADER_BYTES + " bytes, got " + size);
        }
        this.iuid = iuid;
        this.ownerDomain = ownerDomain;
        this.baseVa = baseVa;
        this.size = size;
        this.ring = new byte[size];
        this.slots = size / HEADER_BYTES;
        this.kind = new int[slots];
        this.device = new int[slots];
        this.tag = new long[slots];
        this.va = new long[slots];
        this.length = new int[slots];
        this.dataOffset = new int[slots];
        this.footprint = new int[slots];
        this.missing = new int[slots];
        this.tagged = new boolean[slots];
        this.contentTag = new long[slots];
        this.tagPosition = new long[slots];
    }

    /** Bytes an entry of {@code dataBytes} of data takes in the ring. */
    public static int footprint(int dataBytes) {
        return HEADER_BYTES + ((dataBytes + 7) & ~7);
    }

    /**
     * Reserves the entry of one access.
     *
     * @param dataBytes bytes of data the entry will carry (0 for metadata only); the entry is
     *                  complete at once when 0
     * @return the entry's slot, or -1 if the ring has no room (backpressure)
     */
    public int reserve(int kind, int device, long tag, long va, int length, int dataBytes) {
        int need = footprint(dataBytes);
        if (need > size - usedBytes || reserved - consumed >= slots) {
            stalls++;
            return -1;
        }
        int s = (int) (reserved % slots);
        this.kind[s] = kind;
        this.device[s] = device;
        this.tag[s] = tag;
        this.va[s] = va;
        this.length[s] = length;
        this.dataOffset[s] = (writeOffset + HEADER_BYTES) % size;
        this.footprint[s] = need;
        this.missing[s] = dataBytes;
        this.tagged[s] = false;
        writeOffset = (writeOffset + need) % size;
        usedBytes += need;
        reserved++;
        advanceTail();
        return s;
    }

    /**
     * Writes {@code len} data bytes of a reserved entry at {@code offset} within its data (a
     * packet of the access), filling part of the entry's hole.
     *
     * @return whether the entry is now complete
     */
    public boolean fill(int slot, int offset, byte[] src, int srcOff, int len) {
        checkFill(slot, offset, len);
        int at = (dataOffset[slot] + offset) % size;
        int first = Math.min(len, size - at);
        System.arraycopy(src, srcOff, ring, at, first);
        if (first < len) {
            System.arraycopy(src, srcOff + first, ring, 0, len - first);
        }
        return filled(slot, len);
    }

    /**
     * Records {@code len} bytes of bulk data carried as a content tag run (the stream position
     * of the entry's first byte is {@code position - offset}).
     *
     * @return whether the entry is now complete
     */
    public boolean fillTagged(int slot, int offset, long contentTag, long position, int len) {
        checkFill(slot, offset, len);
        this.tagged[slot] = true;
        this.contentTag[slot] = contentTag;
        this.tagPosition[slot] = position - offset;
        return filled(slot, len);
    }

    private void checkFill(int slot, int offset, int len) {
        int dataBytes = footprint[slot] - HEADER_BYTES;
        if (offset < 0 || len < 0 || offset + len > length[slot] || len > missing[slot] || dataBytes == 0) {
            throw new IllegalStateException("log " + iuid + ": fill of [" + offset + ", +" + len + ") does not fit entry"
                    + " of " + length[slot] + " bytes with " + missing[slot] + " missing");
        }
    }

    private boolean filled(int slot, int len) {
        missing[slot] -= len;
        advanceTail();
        return missing[slot] == 0;
    }

    private void advanceTail() {
        while (committed < reserved && missing[(int) (committed % slots)] == 0) {
            committed++;
        }
    }

    /**
     * Consumes the oldest committed entry into {@code out} (the CPU's read), freeing its room.
     *
     * @return false if no committed entry is waiting
     */
    public boolean poll(AccessRecord out) {
        if (consumed == committed) {
            return false;
        }
        int s = (int) (consumed % slots);
        out.kind = kind[s];
        out.iuid = iuid;
        out.device = device[s];
        out.tag = tag[s];
        out.va = va[s];
        out.length = length[s];
        out.sequence = consumed;
        out.tagged = tagged[s];
        out.contentTag = contentTag[s];
        out.tagPosition = tagPosition[s];
        int dataBytes = AccessKind.carriesData(kind[s]) ? length[s] : 0;
        out.dataLength = tagged[s] ? 0 : dataBytes;
        if (out.dataLength > 0) {
            int at = dataOffset[s];
            int first = Math.min(out.dataLength, size - at);
            System.arraycopy(ring, at, out.data, 0, first);
            if (first < out.dataLength) {
                System.arraycopy(ring, 0, out.data, first, out.dataLength - first);
            }
        }
        usedBytes -= footprint[s];
        consumed++;
        return true;
    }

    /** The IUID. */
    public int iuid() {
        return iuid;
    }

    /** The protection domain that owns the log. */
    public int ownerDomain() {
        return ownerDomain;
    }

    /** The ring's first virtual address. */
    public long baseVa() {
        return baseVa;
    }

    /** The ring's bytes. */
    public int size() {
        return size;
    }

    /** Entries reserved so far (the IOMMU's write pointer, in entries). */
    public long reserved() {
        return reserved;
    }

    /** Entries committed so far: the tail the CPU may read up to. */
    public long committed() {
        return committed;
    }

    /** Entries consumed so far: the head. */
    public long consumed() {
        return consumed;
    }

    /** Committed entries not yet consumed. */
    public long waiting() {
        return committed - consumed;
    }

    /** Bytes reserved and not yet consumed. */
    public int usedBytes() {
        return usedBytes;
    }

    /** Reservations refused for want of room so far. */
    public long stalls() {
        return stalls;
    }
}
