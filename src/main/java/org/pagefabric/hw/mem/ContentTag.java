package org.pagefabric.hw.mem;

/**
 * Content tags: bulk data that no application reads is carried as a 64-bit tag instead of bytes,
 * so that a simulated terabyte does not cost a real one. A tag stands for a deterministic byte
 * stream: byte {@code p} of the stream named {@code tag} is {@link #byteAt(long, long)}. A page
 * holding tagged data records only (offset, length, tag, stream position); the bytes can still be
 * generated on demand, so tagged and literal data mix freely and verify the same way.
 */
public final class ContentTag {
    private static final long GOLDEN = 0x9E3779B97F4A7C15L;

    private ContentTag() {
    }

    /** Byte {@code pos} of the stream named {@code tag}. */
    public static byte byteAt(long tag, long pos) {
        return (byte) (word(tag, pos >>> 3) >>> ((pos & 7) << 3));
    }

    /** Fills {@code dst[off, off+len)} with stream bytes {@code [pos, pos+len)}. */
    public static void fill(long tag, long pos, byte[] dst, int off, int len) {
        int i = 0;
        while (i < len) {
            long p = pos + i;
            long w = word(tag, p >>> 3);
            int shift = (int) (p & 7);
            // emit the rest of this 8-byte word in one go: one hash per eight bytes
            for (int b = shift; b < 8 && i < len; b++, i++) {
                dst[off + i] = (byte) (w >>> (b << 3));
            }
        }
    }

    /** Whether {@code src[off, off+len)} equals stream bytes {@code [pos, pos+len)}. */
    public static boolean matches(long tag, long pos, byte[] src, int off, int len) {
        for (int i = 0; i < len; i++) {
            if (src[off + i] != byteAt(tag, pos + i)) {
                return false;
            }
        }
        return true;
    }

    private static long word(long tag, long index) {
        // a bijective finalizer (from SplitMix64) over a tag/index mix: neighbouring words and
        // neighbouring tags give unrelated bytes, so a misplaced range never verifies by luck
        long z = tag * GOLDEN + (index + 1) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
