package org.pagefabric.hw.mem;

/**
 * The whole content of one page detached from its frame: what a swap slot holds, or a snapshot.
 * Opaque: the bytes (or content tags) inside are reachable only by attaching it to a frame.
 */
public final class PageImage {
    private final Object content;

    PageImage(Object content) {
        this.content = content;
    }

    Object content() {
        return content;
    }

    /** Whether the page was all zeros (nothing ever written). */
    public boolean isZero() {
        return content == null;
    }

    /** Reads bytes {@code [off, off+len)} of the page image (for inspection without swapping in). */
    public void read(int off, byte[] dst, int dstOff, int len) {
        if (off < 0 || len < 0 || off + len > PhysicalMemory.PAGE_SIZE) {
            throw new IndexOutOfBoundsException("range [" + off + ", " + (off + len) + ") is not within a page");
        }
        if (content instanceof byte[] b) {
            System.arraycopy(b, off, dst, dstOff, len);
        } else if (content instanceof TagSegments t) {
            t.render(off, len, dst, dstOff);
        } else {
            java.util.Arrays.fill(dst, dstOff, dstOff + len, (byte) 0);
        }
    }

    /** A copy that can be attached independently of this one. */
    public PageImage duplicate() {
        if (content instanceof byte[] b) {
            return new PageImage(b.clone());
        }
        if (content instanceof TagSegments t) {
            return new PageImage(t.copy());
        }
        return this;
    }
}
