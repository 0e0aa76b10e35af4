package org.pagefabric.hw.os;

import java.util.ArrayList;
import java.util.List;
import org.pagefabric.hw.mem.PhysicalMemory;

/**
 * A buffer of device memory that {@link DeviceMemory} exports as a dma-buf: the frames backing it
 * belong to the exporter, not to any process page table, and importers reach them only through
 * an {@link DmaBufAttachment}'s mapping. The exporter may move it ({@link DeviceMemory#move})
 * unless an attachment pinned it.
 */
public final class DmaBuf {
    private final DeviceMemory exporter;
    private final int id;
    private final long[] frames;
    private final List<DmaBufAttachment> attachments = new ArrayList<>();
    int pins;
    private long generation;
    private boolean reserved;
    private boolean released;

    DmaBuf(DeviceMemory exporter, int id, long[] frames) {
        this.exporter = exporter;
        this.id = id;
        this.frames = frames;
    }

    /** Bytes in the buffer (whole pages). */
    public long size() {
        return (long) frames.length * PhysicalMemory.PAGE_SIZE;
    }

    /** Pages in the buffer. */
    public int pages() {
        return frames.length;
    }

    /** The exporter that owns it. */
    public DeviceMemory exporter() {
        return exporter;
    }

    /**
     * Attaches an importer (dma_buf_dynamic_attach): {@code importer} hears of every move
     * before it happens; {@code null} makes a static attachment, which must pin before it maps.
     */
    public DmaBufAttachment attach(DmaBufImporter importer) {
        if (released) {
            throw new IllegalStateException(this + " was released");
        }
        DmaBufAttachment a = new DmaBufAttachment(this, importer);
        attachments.add(a);
        return a;
    }

    /** Whether an attachment pinned it: the exporter may not move it. */
    public boolean pinned() {
        return pins > 0;
    }

    /** Moves so far. */
    public long generation() {
        return generation;
    }

    /** Whether a move holds the reservation lock (dma_resv) now: importers' move_notify run under it. */
    public boolean reserved() {
        return reserved;
    }

    /** The frame backing page {@code page} now: for inspection, not for a device's access. */
    public long frame(int page) {
        return frames[page];
    }

    /** The exporter's write of tagged content into the buffer (a copy engine filling it). */
    public void writeTag(long tag, long pos) {
        PhysicalMemory m = exporter.memory();
        for (int i = 0; i < frames.length; i++) {
            m.writeTag(frames[i], 0, PhysicalMemory.PAGE_SIZE, tag, pos + (long) i * PhysicalMemory.PAGE_SIZE);
        }
    }

    /** Whether the first {@code length} bytes are tag {@code tag}'s stream from {@code pos}. */
    public boolean verifyTag(long length, long tag, long pos) {
        PhysicalMemory m = exporter.memory();
        for (int i = 0; (long) i * PhysicalMemory.PAGE_SIZE < length; i++) {
            int n = (int) Math.min(PhysicalMemory.PAGE_SIZE, length - (long) i * PhysicalMemory.PAGE_SIZE);
            if (!m.verifyTag(frames[i], 0, n, tag, pos + (long) i * PhysicalMemory.PAGE_SIZE)) {
                return false;
            }
        }
        return true;
    }

    long[] frames(long firstPage, int pages) {
        if (firstPage < 0 || pages < 0 || firstPage + pages > frames.length) {
            throw new IllegalArgumentException("pages [" + firstPage + ", +" + pages + ") outside " + this);
        }
        long[] out = new long[pages];
        System.arraycopy(frames, (int) firstPage, out, 0, pages);
        return out;
    }

    long[] framesInPlace() {
        return frames;
    }

    List<DmaBufAttachment> attachments() {
        return attachments;
    }

    void reserve(boolean held) {
        reserved = held;
    }

    void moved() {
        generation++;
    }

    void detach(DmaBufAttachment a) {
        attachments.remove(a);
    }

    boolean released() {
        return released;
    }

    void markReleased() {
        released = true;
    }

    @Override
    public String toString() {
        return "dma-buf " + id + " (" + size() + " B)";
    }
}
