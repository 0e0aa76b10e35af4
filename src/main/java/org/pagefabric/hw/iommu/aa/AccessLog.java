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
    // the words of an entry
    private static final int STRIDE = 8;
    private static final int KIND_DEVICE = 0; // kind in the high half, device in the low half
    private static final int TAG = 1;
    private static final int VA = 2;
    private static final int LENGTH_FOOTPRINT = 3; // length in the high half, footprint in the low half
    private static final int DATA_POSITION = 4;
    private static final int MISSING = 5; // bytes still missing; bit 32 set once tagged
    private static final int CONTENT_TAG = 6;
    private static final int TAG_POSITION = 7;
    private static final long TAGGED = 1L << 32;
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
    // One entry is STRIDE words side by side, so reserving, filling and consuming an entry
    // touch one or two cache lines instead of one per field in parallel arrays: with a thousand
    // processes' logs in a run, each access reaches a log that is not in cache.
    private long[] entries;
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
        entries = new long[capacity * STRIDE];
    }

    /** Entries the storage holds. */
    private int capacity() {
        return entries.length / STRIDE;
    }

    /** Doubles the entry storage, moving every live entry to its index under the new mask. */
    private void growEntries() {
        long[] old = entries;
        int oMask = capacity() - 1;
        allocateEntries(capacity() * 2);
        int mask = capacity() - 1;
        for (long q = consumed; q < reserved; q++) {
            System.arraycopy(old, (int) (q & oMask) * STRIDE, entries, (int) (q & mask) * STRIDE, STRIDE);
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

    /** The first word of the live entry in logical slot {@code slot}. */
    private int index(int slot) {
        int ahead = slot >= consumedSlot ? slot - consumedSlot : slot + slots - consumedSlot;
        return (int) ((consumed + ahead) & (capacity() - 1)) * STRIDE;
    }

    /** The first word of the entry of sequence number {@code q}. */
    private int at(long q) {
        return (int) (q & (capacity() - 1)) * STRIDE;
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
        if (reserved - consumed == capacity()) {
            growEntries();
        }
        if (usedBytes + need > data.length) {
            growData(usedBytes + need);
        }
        int s = reservedSlot;
        int e = at(reserved);
        long[] w = entries;
        w[e + KIND_DEVICE] = (long) kind << 32 | (device & 0xFFFF_FFFFL);
        w[e + TAG] = tag;
        w[e + VA] = va;
        w[e + LENGTH_FOOTPRINT] = (long) length << 32 | need;
        w[e + DATA_POSITION] = writePosition + HEADER_BYTES;
        w[e + MISSING] = dataBytes;
        w[e + CONTENT_TAG] = 0;
        w[e + TAG_POSITION] = 0;
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
        int at = (int) ((entries[e + DATA_POSITION] + offset) & mask);
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
        entries[e + MISSING] |= TAGGED;
        entries[e + CONTENT_TAG] = contentTag;
        entries[e + TAG_POSITION] = position - offset;
        return filled(e, len);
    }

    private void checkFill(int e, int offset, int len) {
        long lf = entries[e + LENGTH_FOOTPRINT];
        int length = (int) (lf >>> 32);
        int dataBytes = (int) lf - HEADER_BYTES;
        int missing = missing(e);
        if (offset < 0 || len < 0 || offset + len > length || len > missing || dataBytes == 0) {
            throw new IllegalStateException("log " + iuid + ": fill of [" + offset + ", +" + len + ") does not fit entry"
                    + " of " + length + " bytes with " + missing + " missing");
        }
    }

    private int missing(int e) {
        return (int) entries[e + MISSING];
    }

    private boolean filled(int e, int len) {
        // missing is at least len (checkFill), so the subtraction stays in the low half
        entries[e + MISSING] -= len;
        advanceTail();
        return missing(e) == 0;
    }

    private void advanceTail() {
        while (committed < reserved && missing(at(committed)) == 0) {
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
        int e = at(consumed);
        long[] w = entries;
        long kd = w[e + KIND_DEVICE];
        long lf = w[e + LENGTH_FOOTPRINT];
        int kind = (int) (kd >>> 32);
        int length = (int) (lf >>> 32);
        boolean tagged = (w[e + MISSING] & TAGGED) != 0;
        out.kind = kind;
        out.iuid = iuid;
        out.device = (int) kd;
        out.tag = w[e + TAG];
        out.va = w[e + VA];
        out.length = length;
        out.sequence = consumed;
        out.tagged = tagged;
        out.contentTag = w[e + CONTENT_TAG];
        out.tagPosition = w[e + TAG_POSITION];
        int dataBytes = AccessKind.carriesData(kind) ? length : 0;
        out.dataLength = tagged ? 0 : dataBytes;
        if (out.dataLength > 0) {
            copyOut(w[e + DATA_POSITION], out.data, out.dataLength);
        }
        usedBytes -= (int) lf;
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
