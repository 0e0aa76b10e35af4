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

    private static final int FIRST_ENTRIES = 16;
    private static final int FIRST_BYTES = 1024;

    private final int iuid;
    private final int ownerDomain;
    private final long baseVa;
    private final int size;
    private final int slots;
    // The ring's storage holds only what is reserved and not yet consumed, and grows by doubling
    // up to the ring's own size: a log of 1 MiB that never holds more than a few entries costs a
    // few KiB, so a thousand processes' logs fit in a small heap. Entries are stored by sequence
    // number and data by its position in the stream of reserved bytes, each modulo a power of two
    // at least as large as what is live; the logical layout (slot, offset in the ring) is
    // unchanged.
    private byte[] data;
    private int[] kind;
    private int[] device;
    private long[] tag;
    private long[] va;
    private int[] length;
    private long[] dataPosition;
    private int[] footprint;
    private int[] missing;
    private boolean[] tagged;
    private long[] contentTag;
    private long[] tagPosition;
    private long reserved;
    private long committed;
    private long consumed;
    // the slots of the consumed and reserved pointers: sequence numbers modulo slots
    private int consumedSlot;
    private int reservedSlot;
    // bytes reserved since the start, headers included: where the next entry begins
    private long writePosition;
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
        this.slots = size / HEADER_BYTES;
        this.data = new byte[Math.min(FIRST_BYTES, ceilPowerOfTwo(size))];
        allocateEntries(Math.min(FIRST_ENTRIES, ceilPowerOfTwo(slots)));
    }

    private static int ceilPowerOfTwo(int n) {
        return n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
    }

    private void allocateEntries(int capacity) {
        kind = new int[capacity];
        device = new int[capacity];
        tag = new long[capacity];
        va = new long[capacity];
        length = new int[capacity];
        dataPosition = new long[capacity];
        footprint = new int[capacity];
        missing = new int[capacity];
        tagged = new boolean[capacity];
        contentTag = new long[capacity];
        tagPosition = new long[capacity];
    }

    /** Doubles the entry storage, moving every live entry to its index under the new mask. */
    private void growEntries() {
        int[] oKind = kind;
        int[] oDevice = device;
        long[] oTag = tag;
        long[] oVa = va;
        int[] oLength = length;
        long[] oDataPosition = dataPosition;
        int[] oFootprint = footprint;
        int[] oMissing = missing;
        boolean[] oTagged = tagged;
        long[] oContentTag = contentTag;
        long[] oTagPosition = tagPosition;
        int oMask = oKind.length - 1;
        allocateEntries(oKind.length * 2);
        int mask = kind.length - 1;
        for (long q = consumed; q < reserved; q++) {
            int from = (int) (q & oMask);
            int to = (int) (q & mask);
            kind[to] = oKind[from];
            device[to] = oDevice[from];
            tag[to] = oTag[from];
            va[to] = oVa[from];
            length[to] = oLength[from];
            dataPosition[to] = oDataPosition[from];
            footprint[to] = oFootprint[from];
            missing[to] = oMissing[from];
            tagged[to] = oTagged[from];
            contentTag[to] = oContentTag[from];
            tagPosition[to] = oTagPosition[from];
        }
    }

    /** Grows the data storage to hold {@code live} bytes, moving the live span to its new place. */
    private void growData(int live) {
        byte[] old = data;
        int capacity = old.length;
        while (capacity < live) {
            capacity *= 2;
        }
        data = new byte[capacity];
        int oMask = old.length - 1;
        int mask = capacity - 1;
        for (long q = writePosition - usedBytes; q < writePosition; q++) {
            data[(int) (q & mask)] = old[(int) (q & oMask)];
        }
    }

    /** Copies {@code len} bytes of the data ring from stream position {@code position} into {@code dst}. */
    private void copyOut(long position, byte[] dst, int len) {
        int at = (int) (position & (data.length - 1));
        int first = Math.min(len, data.length - at);
        System.arraycopy(data, at, dst, 0, first);
        System.arraycopy(data, 0, dst, first, len - first);
    }

    /** The storage index of the live entry in logical slot {@code slot}. */
    private int index(int slot) {
        int ahead = slot >= consumedSlot ? slot - consumedSlot : slot + slots - consumedSlot;
        return (int) ((consumed + ahead) & (kind.length - 1));
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
        if (reserved - consumed == this.kind.length) {
            growEntries();
        }
        if (usedBytes + need > data.length) {
            growData(usedBytes + need);
        }
        int s = reservedSlot;
        int e = (int) (reserved & (this.kind.length - 1));
        this.kind[e] = kind;
        this.device[e] = device;
        this.tag[e] = tag;
        this.va[e] = va;
        this.length[e] = length;
        this.dataPosition[e] = writePosition + HEADER_BYTES;
        this.footprint[e] = need;
        this.missing[e] = dataBytes;
        this.tagged[e] = false;
        this.contentTag[e] = 0;
        this.tagPosition[e] = 0;
        writePosition += need;
        usedBytes += need;
        reserved++;
        reservedSlot = reservedSlot + 1 == slots ? 0 : reservedSlot + 1;
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
        int e = index(slot);
        checkFill(e, offset, len);
        int mask = data.length - 1;
        int at = (int) ((dataPosition[e] + offset) & mask);
        int first = Math.min(len, data.length - at);
        System.arraycopy(src, srcOff, data, at, first);
        if (first < len) {
            System.arraycopy(src, srcOff + first, data, 0, len - first);
        }
        return filled(e, len);
    }

    /**
     * Records {@code len} bytes of bulk data carried as a content tag run (the stream position
     * of the entry's first byte is {@code position - offset}).
     *
     * @return whether the entry is now complete
     */
    public boolean fillTagged(int slot, int offset, long contentTag, long position, int len) {
        int e = index(slot);
        checkFill(e, offset, len);
        this.tagged[e] = true;
        this.contentTag[e] = contentTag;
        this.tagPosition[e] = position - offset;
        return filled(e, len);
    }

    private void checkFill(int e, int offset, int len) {
        int dataBytes = footprint[e] - HEADER_BYTES;
        if (offset < 0 || len < 0 || offset + len > length[e] || len > missing[e] || dataBytes == 0) {
            throw new IllegalStateException("log " + iuid + ": fill of [" + offset + ", +" + len + ") does not fit entry"
                    + " of " + length[e] + " bytes with " + missing[e] + " missing");
        }
    }

    private boolean filled(int e, int len) {
        missing[e] -= len;
        advanceTail();
        return missing[e] == 0;
    }

    private void advanceTail() {
        int mask = kind.length - 1;
        while (committed < reserved && missing[(int) (committed & mask)] == 0) {
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
        int s = (int) (consumed & (kind.length - 1));
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
            copyOut(dataPosition[s], out.data, out.dataLength);
        }
        usedBytes -= footprint[s];
        consumed++;
        consumedSlot = consumedSlot + 1 == slots ? 0 : consumedSlot + 1;
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
