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

    /** Writes a tag run over {@code [off, off+len)}; false (unchanged) if it does not fit. */
    boolean add(int off, int len, long tag, long pos) {
        long[] saved = seg;
        int savedCount = count;
        if (!clear(off, off + len)) {
            return false;
        }
        if (count + 1 > MAX_SEGMENTS) {
            seg = saved;
            count = savedCount;
            return false;
        }
        int at = 0;
        while (at < count && off(at) < off) {
            at++;
        }
        long[] out = new long[(count + 1) * 3];
        System.arraycopy(seg, 0, out, 0, at * 3);
        put(out, at, off, len, tag, pos);
        System.arraycopy(seg, at * 3, out, (at + 1) * 3, (count - at) * 3);
        seg = out;
        count++;
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
