package org.pagefabric.hw.mem;

import java.util.Arrays;

/**
 * The bytes of physical memory, sparse: a frame's content is nothing (all zeros) until written,
 * then either a {@code byte[4096]} or {@link TagSegments}. Content slots are allocated lazily in
 * chunks of {@value #CHUNK_FRAMES} frames, so untouched memory costs nothing.
 *
 * <p>Offsets are within one frame; callers split multi-page accesses.
 */
public final class PageBacking {
    static final int CHUNK_SHIFT = 12;
    static final int CHUNK_FRAMES = 1 << CHUNK_SHIFT;
    private static final int CHUNK_MASK = CHUNK_FRAMES - 1;

    private final long frames;
    private Object[][] chunks;
    /** Staging buffer for copies and verification, allocated on first use (idle nodes skip it). */
    private byte[] scratch;

    /** Backing for {@code frames} frames. */
    public PageBacking(long frames) {
        this.frames = frames;
    }

    private Object get(long frame) {
        if (chunks == null) {
            return null;
        }
        Object[] c = chunks[(int) (frame >>> CHUNK_SHIFT)];
        return c == null ? null : c[(int) (frame & CHUNK_MASK)];
    }

    private void set(long frame, Object content) {
        if (chunks == null) {
            if (content == null) {
                return;
            }
            chunks = new Object[(int) ((frames + CHUNK_MASK) >>> CHUNK_SHIFT)][];
        }
        int ci = (int) (frame >>> CHUNK_SHIFT);
        Object[] c = chunks[ci];
        if (c == null) {
            if (content == null) {
                return;
            }
            c = new Object[CHUNK_FRAMES];
            chunks[ci] = c;
        }
        c[(int) (frame & CHUNK_MASK)] = content;
    }

    /** Whether the frame holds any written content (bytes or tags). */
    public boolean hasContent(long frame) {
        return get(frame) != null;
    }

    /** Copies frame bytes {@code [off, off+len)} to {@code dst}; unwritten bytes read as zero. */
    public void read(long frame, int off, byte[] dst, int dstOff, int len) {
        check(off, len);
        Object c = get(frame);
        if (c == null) {
            Arrays.fill(dst, dstOff, dstOff + len, (byte) 0);
        } else if (c instanceof byte[] b) {
            System.arraycopy(b, off, dst, dstOff, len);
        } else {
            ((TagSegments) c).render(off, len, dst, dstOff);
        }
    }

    /** Writes literal bytes. */
    public void write(long frame, int off, byte[] src, int srcOff, int len) {
        check(off, len);
        if (len == 0) {
            return;
        }
        System.arraycopy(src, srcOff, bytes(frame), off, len);
    }

    /** Writes stream bytes {@code [pos, pos+len)} of {@code tag} at {@code off}. */
    public void writeTag(long frame, int off, int len, long tag, long pos) {
        check(off, len);
        if (len == 0) {
            return;
        }
        Object c = get(frame);
        if (c == null) {
            set(frame, new TagSegments(off, len, tag, pos));
        } else if (c instanceof byte[] b) {
            ContentTag.fill(tag, pos, b, off, len);
        } else if (!((TagSegments) c).add(off, len, tag, pos)) {
            ContentTag.fill(tag, pos, bytes(frame), off, len);
        }
    }

    /**
     * Whether bytes {@code [off, off+len)} of the frame are one run of one tag's stream; if so,
     * stores the tag and the stream position of byte {@code off} in {@code tagAndPos}. Lets a
     * DMA engine carry bulk data as a tag instead of materializing it.
     */
    public boolean tagRun(long frame, int off, int len, long[] tagAndPos) {
        check(off, len);
        if (!(get(frame) instanceof TagSegments t)) {
            return false;
        }
        for (int i = 0; i < t.count(); i++) {
            int so = t.off(i);
            if (so <= off && off + len <= so + t.len(i)) {
                tagAndPos[0] = t.tag(i);
                tagAndPos[1] = t.pos(i) + (off - so);
                return true;
            }
        }
        return false;
    }

    /** Zeroes bytes {@code [off, off+len)}. */
    public void zero(long frame, int off, int len) {
        check(off, len);
        Object c = get(frame);
        if (c == null || len == 0) {
            return;
        }
        if (off == 0 && len == PhysicalMemory.PAGE_SIZE) {
            set(frame, null);
        } else if (c instanceof byte[] b) {
            Arrays.fill(b, off, off + len, (byte) 0);
        } else {
            TagSegments t = (TagSegments) c;
            if (!t.clear(off, off + len)) {
                Arrays.fill(bytes(frame), off, off + len, (byte) 0);
            } else if (t.isEmpty()) {
                set(frame, null);
            }
        }
    }

    /**
     * Copies {@code len} bytes from one frame to another, keeping content tags as tags where the
     * source range is one tag run or zero (so bulk tagged traffic stays cheap through copies).
     */
    public void copy(long src, int srcOff, long dst, int dstOff, int len) {
        check(srcOff, len);
        check(dstOff, len);
        if (len == 0) {
            return;
        }
        Object c = get(src);
        if (c == null) {
            zero(dst, dstOff, len);
            return;
        }
        if (c instanceof TagSegments t && src != dst) {
            if (t.noneWithin(srcOff, srcOff + len)) {
                zero(dst, dstOff, len);
                return;
            }
            int i = t.covering(srcOff, srcOff + len);
            if (i >= 0) {
                writeTag(dst, dstOff, len, t.tag(i), t.pos(i) + (srcOff - t.off(i)));
                return;
            }
        }
        byte[] buf = scratch();
        read(src, srcOff, buf, 0, len);
        write(dst, dstOff, buf, 0, len);
    }

    /** Detaches the whole content of a frame (the frame reads as zeros afterwards). */
    public PageImage detach(long frame) {
        Object c = get(frame);
        set(frame, null);
        return new PageImage(c);
    }

    /** A copy of the whole content of a frame, leaving the frame unchanged. */
    public PageImage snapshot(long frame) {
        return new PageImage(duplicate(get(frame)));
    }

    /** Replaces the whole content of a frame with an image (which must not be attached twice). */
    public void attach(long frame, PageImage image) {
        set(frame, image.content());
    }

    /** Replaces the whole content of {@code dst} with a copy of {@code src}'s. */
    public void copyPage(long src, long dst) {
        if (src != dst) {
            set(dst, duplicate(get(src)));
        }
    }

    /** Moves the whole content of {@code src} to {@code dst}; {@code src} reads as zeros. */
    public void movePage(long src, long dst) {
        if (src != dst) {
            set(dst, get(src));
            set(src, null);
        }
    }

    /** Whether bytes {@code [off, off+len)} are stream bytes {@code [pos, pos+len)} of the tag. */
    public boolean verifyTag(long frame, int off, int len, long tag, long pos) {
        check(off, len);
        Object c = get(frame);
        if (c instanceof TagSegments t) {
            int i = t.covering(off, off + len);
            if (i >= 0 && t.tag(i) == tag && t.pos(i) + (off - t.off(i)) == pos) {
                return true;
            }
        }
        if (c instanceof byte[] b) {
            return ContentTag.matches(tag, pos, b, off, len);
        }
        byte[] buf = scratch();
        read(frame, off, buf, 0, len);
        return ContentTag.matches(tag, pos, buf, 0, len);
    }

    /** Feeds bytes {@code [off, off+len)} of the frame to a digest. */
    public void digest(long frame, int off, int len, ContentDigest digest) {
        check(off, len);
        Object c = get(frame);
        if (c == null) {
            digest.updateZeros(len);
        } else if (c instanceof byte[] b) {
            digest.update(b, off, len);
        } else {
            byte[] buf = scratch();
            read(frame, off, buf, 0, len);
            digest.update(buf, 0, len);
        }
    }

    /** Heap bytes held by this backing, roughly. */
    public long footprintBytes() {
        long bytes = 32 + (scratch == null ? 0 : 16 + PhysicalMemory.PAGE_SIZE);
        if (chunks == null) {
            return bytes;
        }
        bytes += 16 + 4L * chunks.length;
        for (Object[] c : chunks) {
            if (c == null) {
                continue;
            }
            bytes += 16 + 4L * c.length;
            for (Object o : c) {
                if (o instanceof byte[] b) {
                    bytes += 16 + b.length;
                } else if (o instanceof TagSegments t) {
                    bytes += t.footprintBytes();
                }
            }
        }
        return bytes;
    }

    private byte[] scratch() {
        if (scratch == null) {
            scratch = new byte[PhysicalMemory.PAGE_SIZE];
        }
        return scratch;
    }

    private byte[] bytes(long frame) {
        Object c = get(frame);
        if (c instanceof byte[] b) {
            return b;
        }
        byte[] b = new byte[PhysicalMemory.PAGE_SIZE];
        if (c != null) {
            ((TagSegments) c).render(0, PhysicalMemory.PAGE_SIZE, b, 0);
        }
        set(frame, b);
        return b;
    }

    private static Object duplicate(Object c) {
        if (c instanceof byte[] b) {
            return b.clone();
        }
        if (c instanceof TagSegments t) {
            return t.copy();
        }
        return null;
    }

    private static void check(int off, int len) {
        if (off < 0 || len < 0 || off + len > PhysicalMemory.PAGE_SIZE) {
            throw new IndexOutOfBoundsException("range [" + off + ", " + (off + len) + ") is not within a page");
        }
    }
}
