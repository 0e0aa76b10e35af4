package org.pagefabric.hw.mem;

import java.util.Arrays;

/**
 * The content of one page held as content-tag segments: sorted, non-overlapping
 * (offset, length, tag, stream position) runs; bytes no segment covers are zero. Three longs per
 * segment in one array, so a page carrying one tag costs about sixty bytes of heap instead of
 * 4 KiB. Past {@link #MAX_SEGMENTS} segments the page is materialized into bytes by its owner.
 */
final class TagSegments {
    /** Beyond this many runs a page is cheaper and simpler as bytes. */
    static final int MAX_SEGMENTS = 8;

    /** Per segment: {@code (offset << 32 | length)}, tag, stream position of the first byte. */
    private long[] seg;
    private int count;

    TagSegments(int off, int len, long tag, long pos) {
        seg = new long[] {((long) off << 32) | len, tag, pos};
        count = 1;
    }

    private TagSegments(long[] seg, int count) {
        this.seg = seg;
        this.count = count;
    }

    TagSegments copy() {
        return new TagSegments(Arrays.copyOf(seg, count * 3), count);
    }

    int count() {
        return count;
    }

    int off(int i) {
        return (int) (seg[i * 3] >>> 32);
    }

    int len(int i) {
        return (int) seg[i * 3];
    }

    long tag(int i) {
        return seg[i * 3 + 1];
    }

    long pos(int i) {
        return seg[i * 3 + 2];
    }

    boolean isEmpty() {
        return count == 0;
    }

    /**
     * Removes bytes {@code [s, e)} from every segment (they become zero). Returns false, leaving
     * the segments unchanged, if that would need more than {@link #MAX_SEGMENTS} segments.
     */
    boolean clear(int s, int e) {
        int splits = 0;
        for (int i = 0; i < count; i++) {
            if (off(i) < s && off(i) + len(i) > e) {
                splits++;
            }
        }
        if (count + splits > MAX_SEGMENTS) {
            return false;
        }
        long[] out = new long[Math.max(3, (count + splits) * 3)];
        int n = 0;
        for (int i = 0; i < count; i++) {
            int o = off(i);
            int end = o + len(i);
            long t = tag(i);
            long p = pos(i);
            if (end <= s || o >= e) {
                n = put(out, n, o, end - o, t, p);
                continue;
            }
            if (o < s) {
                n = put(out, n, o, s - o, t, p);
            }
            if (end > e) {
                n = put(out, n, e, end - e, t, p + (e - o));
            }
        }
        seg = out;
        count = n;
        return true;
    }

    /**
     * Writes a tag run over {@code [off, off+len)}; false (unchanged) if it does not fit. The
     * segments end as {@link #clear} then an insertion would leave them, in an array of exactly
     * their size; when that is the array's size already (a DMA write over a page one run fills,
     * once per packet) it is rewritten in place rather than allocated anew.
     */
    boolean add(int off, int len, long tag, long pos) {
        final int e = off + len;
        // the segments starting before the run (the last one may reach into it, or across it)
        int a = 0;
        while (a < count && off(a) < off) {
            a++;
        }
        // the segments ending after the run: from index from on (the first one may start in it)
        int from = a > 0 && off(a - 1) + len(a - 1) > e ? a - 1 : a;
        while (from < count && off(from) + len(from) <= e) {
            from++;
        }
        int b = count - from;
        int splits = from < a ? 1 : 0;
        if (count + splits > MAX_SEGMENTS || a + b + 1 > MAX_SEGMENTS) {
            return false;
        }
        int n = a + 1 + b;
        // the straddling ends, read before the copies below can overwrite them
        int leftOff = a > 0 ? off(a - 1) : 0;
        int leftEnd = a > 0 ? leftOff + len(a - 1) : 0;
        int rightOff = b > 0 ? off(from) : 0;
        int rightEnd = b > 0 ? rightOff + len(from) : 0;
        long rightTag = b > 0 ? tag(from) : 0;
        long rightPos = b > 0 ? pos(from) : 0;
        long[] out = seg.length == n * 3 ? seg : new long[n * 3];
        if (b > 0) {
            System.arraycopy(seg, from * 3, out, (a + 1) * 3, b * 3);
        }
        if (out != seg && a > 0) {
            System.arraycopy(seg, 0, out, 0, a * 3);
        }
        if (a > 0 && leftEnd > off) {
            out[(a - 1) * 3] = ((long) leftOff << 32) | (off - leftOff);
        }
        if (b > 0 && rightOff < e) {
            put(out, a + 1, e, rightEnd - e, rightTag, rightPos + (e - rightOff));
        }
        put(out, a, off, len, tag, pos);
        seg = out;
        count = n;
        return true;
    }

    /** The index of the one segment covering all of {@code [s, e)}, or -1. */
    int covering(int s, int e) {
        for (int i = 0; i < count; i++) {
            if (off(i) <= s && off(i) + len(i) >= e) {
                return i;
            }
        }
        return -1;
    }

    /** Whether no segment touches {@code [s, e)} (those bytes are zero). */
    boolean noneWithin(int s, int e) {
        for (int i = 0; i < count; i++) {
            if (off(i) < e && off(i) + len(i) > s) {
                return false;
            }
        }
        return true;
    }

    /** Renders page bytes {@code [from, from+len)} into {@code dst[dstOff...]}. */
    void render(int from, int len, byte[] dst, int dstOff) {
        Arrays.fill(dst, dstOff, dstOff + len, (byte) 0);
        int to = from + len;
        for (int i = 0; i < count; i++) {
            int s = Math.max(from, off(i));
            int e = Math.min(to, off(i) + len(i));
            if (s < e) {
                ContentTag.fill(tag(i), pos(i) + (s - off(i)), dst, dstOff + (s - from), e - s);
            }
        }
    }

    /** Heap bytes, roughly: object header, fields and the array. */
    long footprintBytes() {
        return 24 + 16 + 8L * seg.length;
    }

    private static int put(long[] out, int n, int off, int len, long tag, long pos) {
        out[n * 3] = ((long) off << 32) | len;
        out[n * 3 + 1] = tag;
        out[n * 3 + 2] = pos;
        return n + 1;
    }
}
