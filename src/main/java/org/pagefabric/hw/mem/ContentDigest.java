package org.pagefabric.hw.mem;

/**
 * A streaming 64-bit digest (FNV-1a) of a byte sequence, used to check a transfer's destination
 * against its source: feed both ranges in address order and compare {@link #value()}. Tagged
 * and literal data give the same digest for the same bytes.
 */
public final class ContentDigest {
    private static final long OFFSET_BASIS = 0xcbf29ce484222325L;
    private static final long PRIME = 0x100000001b3L;
    private long hash = OFFSET_BASIS;
    private long length;

    /** Adds one byte. */
    public void update(byte b) {
        hash = (hash ^ (b & 0xff)) * PRIME;
        length++;
    }

    /** Adds {@code len} bytes of {@code src} from {@code off}. */
    public void update(byte[] src, int off, int len) {
        long h = hash;
        for (int i = 0; i < len; i++) {
            h = (h ^ (src[off + i] & 0xff)) * PRIME;
        }
        hash = h;
        length += len;
    }

    /** Adds {@code len} zero bytes. */
    public void updateZeros(int len) {
        long h = hash;
        for (int i = 0; i < len; i++) {
            h *= PRIME;
        }
        hash = h;
        length += len;
    }

    /** The digest so far. */
    public long value() {
        return hash;
    }

    /** Bytes digested so far. */
    public long length() {
        return length;
    }

    /** Starts over. */
    public void reset() {
        hash = OFFSET_BASIS;
        length = 0;
    }
}
