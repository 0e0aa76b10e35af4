package org.pagefabric.hw.os;

/**
 * One device's attachment to a {@link DmaBuf} (dma_buf_attach / dma_buf_dynamic_attach,
 * drivers/dma-buf/dma-buf.c). A static attachment has no importer callback and must pin the
 * buffer (dma_buf_pin) before mapping it: the exporter then refuses to move it. A dynamic one
 * names a {@link DmaBufImporter} that hears of every move and maps again afterwards.
 */
public final class DmaBufAttachment {
    private final DmaBuf buf;
    private final DmaBufImporter importer;
    private boolean pinned;
    private boolean detached;

    DmaBufAttachment(DmaBuf buf, DmaBufImporter importer) {
        this.buf = buf;
        this.importer = importer;
    }

    /** The buffer attached to. */
    public DmaBuf buffer() {
        return buf;
    }

    /** Whether the importer hears of moves (dma_buf_dynamic_attach with move_notify). */
    public boolean dynamic() {
        return importer != null;
    }

    /** Whether {@link #pin()} holds the buffer in place. */
    public boolean pinned() {
        return pinned;
    }

    /**
     * Pins the buffer where it is (dma_buf_pin): the exporter refuses every move until
     * {@link #unpin()}; what an importer that cannot handle move_notify does
     * (ib_umem_dmabuf_get_pinned in drivers/infiniband/core/umem_dmabuf.c).
     */
    public void pin() {
        checkAttached();
        if (!pinned) {
            pinned = true;
            buf.pins++;
        }
    }

    /** Releases {@link #pin()} (dma_buf_unpin). */
    public void unpin() {
        if (pinned) {
            pinned = false;
            buf.pins--;
        }
    }

    /**
     * The frames backing {@code pages} pages from page {@code firstPage} of the buffer, its
     * scatter list now (dma_buf_map_attachment). A static attachment must be pinned first, as
     * the kernel requires of non-dynamic importers.
     *
     * @throws IllegalStateException if unpinned and static, detached, or under the reservation lock of a move
     */
    public long[] map(long firstPage, int pages) {
        checkAttached();
        if (!dynamic() && !pinned) {
            throw new IllegalStateException("a static attachment maps only a pinned buffer (dma_buf_pin first)");
        }
        if (buf.reserved()) {
            throw new IllegalStateException("mapping " + buf + " while a move holds its reservation lock");
        }
        return buf.frames(firstPage, pages);
    }

    /**
     * How many times the buffer has moved: an importer reads it before mapping and compares
     * after, as a page-in reads an MMU notifier's sequence, to drop frames a move overtook.
     */
    public long generation() {
        return buf.generation();
    }

    /** Ends the attachment (dma_buf_detach): unpins, and the importer hears of no more moves. */
    public void detach() {
        unpin();
        if (!detached) {
            detached = true;
            buf.detach(this);
        }
    }

    long notifyMove() {
        return importer.moveNotify(this);
    }

    private void checkAttached() {
        if (detached) {
            throw new IllegalStateException("attachment to " + buf + " was detached");
        }
    }
}
