package org.pagefabric.hw.iommu.aa;

/**
 * One access log entry as the CPU reads it: a holder the consumer reuses, so that draining a
 * log allocates nothing.
 */
public final class AccessRecord {
    /** {@link AccessKind} of the access. */
    public int kind;
    /** The IOMMU user domain whose log held the entry. */
    public int iuid;
    /** The device (requester) that made the access. */
    public int device;
    /** The device's transaction tag. */
    public long tag;
    /** First virtual address the access touched. */
    public long va;
    /** Bytes the access covered. */
    public int length;
    /** Position of the entry in its log's sequence (0, 1, 2, ... in commit order). */
    public long sequence;
    /** Bytes of {@link #data} that are valid: {@link #length} for data-carrying kinds, else 0. */
    public int dataLength;
    /** Whether the data travelled as a content tag (bulk data nobody reads) rather than bytes. */
    public boolean tagged;
    /** For tagged data: the content tag (0 for an entry whose data travelled as bytes). */
    public long contentTag;
    /** For tagged data: the stream position of the first byte. */
    public long tagPosition;
    /** The logged data. */
    public final byte[] data;

    /** A holder for entries of up to {@code maxData} data bytes. */
    public AccessRecord(int maxData) {
        this.data = new byte[maxData];
    }

    /** The little-endian 64-bit word at byte {@code offset} of the data. */
    public long word(int offset) {
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (data[offset + i] & 0xFF);
        }
        return v;
    }
}
