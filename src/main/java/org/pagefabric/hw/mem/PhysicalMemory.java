package org.pagefabric.hw.mem;

/**
 * A node's RAM: a fixed number of 4 KiB frames, their metadata ({@link FrameTable}), their bytes
 * ({@link PageBacking}) and the free frames. Anything that reaches memory by physical address
 * (the kernel, a NIC's DMA engine behind its translation) reads and writes here.
 *
 * <p>Writes are never refused, as on real hardware: a device that writes through a stale
 * translation lands in the <em>old</em> frame. If that frame is still allocated (pinned after
 * munmap, or reused by someone else) its owner sees the corruption; if it is free, the write is
 * counted in {@link #strayWrites()} and the frame flagged {@link FrameTable#STRAY_WRITE}, so
 * verification fails loudly instead of the write vanishing.
 */
public final class PhysicalMemory {
    /** log2 of {@link #PAGE_SIZE}. */
    public static final int PAGE_SHIFT = 12;
    /** Bytes per frame: the page size of the whole memory model, defined here and nowhere else. */
    public static final int PAGE_SIZE = 1 << PAGE_SHIFT;
    /** Frames per 2 MiB huge page. */
    public static final int HUGE_FRAMES = FrameAllocator.HUGE_FRAMES;
    /** Returned by the allocators when no frame is free. */
    public static final long NO_FRAME = -1;

    private final long frames;
    private final FrameTable table;
    private final FrameAllocator allocator;
    private final PageBacking backing;
    private long strayWrites;

    /** RAM of {@code capacityBytes}, a positive multiple of 4 KiB. */
    public PhysicalMemory(long capacityBytes) {
        if (capacityBytes <= 0 || capacityBytes % PAGE_SIZE != 0) {
            throw new IllegalArgumentException("capacity " + capacityBytes + " B is not a positive multiple of 4 KiB");
        }
        this.frames = capacityBytes / PAGE_SIZE;
        this.table = new FrameTable(frames);
        this.allocator = new FrameAllocator(frames);
        this.backing = new PageBacking(frames);
    }

    /** Capacity in frames. */
    public long capacityFrames() {
        return frames;
    }

    /** Free frames. */
    public long freeFrames() {
        return allocator.free();
    }

    /** Allocated frames. */
    public long usedFrames() {
        return frames - allocator.free();
    }

    /** The highest frame number ever handed out, plus one: frames above were never used. */
    public long highWatermark() {
        return allocator.watermark();
    }

    /** The per-frame metadata. */
    public FrameTable frames() {
        return table;
    }

    /** The bytes. */
    public PageBacking backing() {
        return backing;
    }

    /** Allocates one zeroed frame with {@code flags} (besides ALLOCATED), or returns {@link #NO_FRAME}. */
    public long allocate(int flags) {
        long f = allocator.allocate();
        if (f >= 0) {
            take(f, flags);
        }
        return f;
    }

    /**
     * Allocates a zeroed 2 MiB-aligned block of 512 frames as one compound page, or returns
     * {@link #NO_FRAME}. Returns the head frame.
     */
    public long allocateHuge(int flags) {
        long head = allocator.allocateHuge();
        if (head < 0) {
            return head;
        }
        take(head, flags | FrameTable.HUGE_HEAD);
        for (int i = 1; i < HUGE_FRAMES; i++) {
            take(head + i, flags | FrameTable.HUGE_TAIL);
        }
        return head;
    }

    private void take(long f, int flags) {
        // a zeroed frame: content left by a stray write to the free frame is dropped, the flag stays
        backing.zero(f, 0, PAGE_SIZE);
        table.clear(f, ~FrameTable.STRAY_WRITE);
        table.set(f, FrameTable.ALLOCATED | flags);
    }

    /** Whether {@code frame} belongs to a 2 MiB compound page (head or tail). */
    public boolean inHugePage(long frame) {
        return table.has(frame, FrameTable.HUGE_HEAD) || table.has(frame, FrameTable.HUGE_TAIL);
    }

    /** Frees a 4 KiB frame that nothing maps or pins. */
    public void free(long frame) {
        checkFreeable(frame);
        if (table.has(frame, FrameTable.HUGE_HEAD) || table.has(frame, FrameTable.HUGE_TAIL)) {
            throw new IllegalStateException("frame " + frame + " is part of a huge page: split it or free the whole page");
        }
        release(frame);
        allocator.release(frame);
    }

    /** Frees a whole compound page by its head; no frame of it may be mapped or pinned. */
    public void freeHuge(long head) {
        if (!table.has(head, FrameTable.HUGE_HEAD)) {
            throw new IllegalStateException("frame " + head + " is not the head of a huge page");
        }
        for (int i = 0; i < HUGE_FRAMES; i++) {
            checkFreeable(head + i);
        }
        for (int i = 0; i < HUGE_FRAMES; i++) {
            release(head + i);
        }
        allocator.releaseHuge(head);
    }

    /**
     * Turns a compound page into 512 independent 4 KiB frames (keeping their content, counts and
     * other flags), as split_huge_page does.
     */
    public void splitHuge(long head) {
        if (!table.has(head, FrameTable.HUGE_HEAD)) {
            throw new IllegalStateException("frame " + head + " is not the head of a huge page");
        }
        table.clear(head, FrameTable.HUGE_HEAD);
        for (int i = 1; i < HUGE_FRAMES; i++) {
            table.clear(head + i, FrameTable.HUGE_TAIL);
        }
    }

    private void checkFreeable(long frame) {
        if (!table.has(frame, FrameTable.ALLOCATED)) {
            throw new IllegalStateException("frame " + frame + " is already free (double free)");
        }
        if (table.mapCount(frame) != 0 || table.pinCount(frame) != 0) {
            throw new IllegalStateException("frame " + frame + " is still mapped (" + table.mapCount(frame)
                    + ") or pinned (" + table.pinCount(frame) + ")");
        }
    }

    private void release(long frame) {
        // drop the bytes now: a free frame holds no heap, and a later reader must not see them
        backing.zero(frame, 0, PAGE_SIZE);
        table.clear(frame, ~FrameTable.STRAY_WRITE);
    }

    /** Whether the frame is allocated. */
    public boolean isAllocated(long frame) {
        return table.has(frame, FrameTable.ALLOCATED);
    }

    /** Writes to free frames so far: each one is a stale translation that was used. */
    public long strayWrites() {
        return strayWrites;
    }

    private void noteWrite(long frame) {
        if (!table.has(frame, FrameTable.ALLOCATED)) {
            strayWrites++;
            table.set(frame, FrameTable.STRAY_WRITE);
        }
    }

    /** Reads bytes of one frame (zeros where never written). */
    public void read(long frame, int off, byte[] dst, int dstOff, int len) {
        backing.read(frame, off, dst, dstOff, len);
    }

    /** Writes literal bytes into one frame. */
    public void write(long frame, int off, byte[] src, int srcOff, int len) {
        noteWrite(frame);
        backing.write(frame, off, src, srcOff, len);
    }

    /** Writes tagged bytes (stream {@code tag} from {@code pos}) into one frame. */
    public void writeTag(long frame, int off, int len, long tag, long pos) {
        noteWrite(frame);
        backing.writeTag(frame, off, len, tag, pos);
    }

    /** Whether bytes of a frame are one run of one tag's stream (see {@link PageBacking#tagRun}). */
    public boolean tagRun(long frame, int off, int len, long[] tagAndPos) {
        return backing.tagRun(frame, off, len, tagAndPos);
    }

    /** Copies bytes between frames (a DMA or memcpy), keeping tags where it can. */
    public void copy(long src, int srcOff, long dst, int dstOff, int len) {
        noteWrite(dst);
        backing.copy(src, srcOff, dst, dstOff, len);
    }

    /** Whether bytes of a frame are the tag's stream bytes from {@code pos}. */
    public boolean verifyTag(long frame, int off, int len, long tag, long pos) {
        return backing.verifyTag(frame, off, len, tag, pos);
    }

    /** Feeds bytes of a frame to a digest. */
    public void digest(long frame, int off, int len, ContentDigest digest) {
        backing.digest(frame, off, len, digest);
    }

    /** Heap bytes held by this memory model, roughly. */
    public long footprintBytes() {
        return 64 + table.footprintBytes() + allocator.footprintBytes() + backing.footprintBytes();
    }
}
