package org.pagefabric.hw.os;

import org.pagefabric.hw.mem.PhysicalMemory;

/**
 * A device-memory allocator that exports its buffers as dma-bufs (a GPU driver's VRAM manager):
 * it owns the buffers' frames, which no process page table maps, and may move a buffer
 * (eviction, migration) as long as no attachment pinned it.
 *
 * <p>A move follows dma_buf_move_notify (drivers/dma-buf/dma-buf.c): with the buffer's
 * reservation lock held, every dynamic importer's move_notify runs first and, once it returns,
 * no longer uses the old placement; only then are the pages copied to new frames and the old
 * ones freed. A pinned buffer (dma_buf_pin) is refused with EBUSY and stays where it is.
 *
 * <p>The frames come from the node's RAM ({@link PhysicalMemory}): the model has no memory of
 * its own for the device, so device memory competes with the node's, and a move's copy costs
 * {@code os.migrate.per_page} per page.
 */
public final class DeviceMemory {
    private final Kernel kernel;
    private int exported;
    private long moves;
    private long refused;

    DeviceMemory(Kernel kernel) {
        this.kernel = kernel;
    }

    /**
     * Exports a buffer of {@code bytes} (rounded up to pages) of device memory.
     *
     * @throws OsException ENOMEM if the frames are not there
     */
    public DmaBuf export(long bytes) {
        if (bytes <= 0 || bytes > (long) Integer.MAX_VALUE * Kernel.PAGE_SIZE) {
            throw new IllegalArgumentException("a dma-buf of " + bytes + " B: the size must be positive");
        }
        long[] frames = new long[(int) (Kernel.pageUp(bytes) / Kernel.PAGE_SIZE)];
        for (int i = 0; i < frames.length; i++) {
            frames[i] = memory().allocate(0);
            if (frames[i] < 0) {
                for (int j = 0; j < i; j++) {
                    memory().free(frames[j]);
                }
                throw new OsException(Errno.ENOMEM, "exporting a dma-buf of " + bytes + " B", 0);
            }
        }
        return new DmaBuf(this, exported++, frames);
    }

    /**
     * Moves {@code buf} to new frames: refused (EBUSY) if an attachment pinned it, EAGAIN if
     * no frames are free; otherwise every dynamic importer hears of it under the reservation
     * lock, the content is copied and the old frames freed.
     *
     * @return the outcome and the exporter's time: the copy and the importers' callbacks
     */
    public PageOpResult move(DmaBuf buf) {
        if (buf.released()) {
            throw new IllegalStateException(buf + " was released");
        }
        if (buf.pinned()) {
            refused++;
            return new PageOpResult(Errno.EBUSY, 0);
        }
        long[] frames = buf.framesInPlace();
        long[] targets = new long[frames.length];
        for (int i = 0; i < targets.length; i++) {
            targets[i] = memory().allocate(0);
            if (targets[i] < 0) {
                for (int j = 0; j < i; j++) {
                    memory().free(targets[j]);
                }
                refused++;
                return new PageOpResult(Errno.EAGAIN, 0);
            }
        }
        long cost = 0;
        buf.reserve(true);
        try {
            for (DmaBufAttachment a : buf.attachments()) {
                if (a.dynamic()) {
                    cost += a.notifyMove();
                }
            }
            PhysicalMemory m = memory();
            for (int i = 0; i < frames.length; i++) {
                m.copy(frames[i], 0, targets[i], 0, PhysicalMemory.PAGE_SIZE);
                m.free(frames[i]);
                frames[i] = targets[i];
            }
            buf.moved();
        } finally {
            buf.reserve(false);
        }
        cost += kernel.costs.migratePerPagePs() * frames.length;
        kernel.charge(cost);
        moves++;
        return new PageOpResult(null, cost);
    }

    /** Frees {@code buf}'s frames; every attachment must have been detached first. */
    public void release(DmaBuf buf) {
        if (!buf.attachments().isEmpty()) {
            throw new IllegalStateException(buf + " still has " + buf.attachments().size() + " attachments");
        }
        if (!buf.released()) {
            for (long f : buf.framesInPlace()) {
                memory().free(f);
            }
            buf.markReleased();
        }
    }

    /** Moves made so far. */
    public long moves() {
        return moves;
    }

    /** Moves refused so far (pinned, or no frames). */
    public long refusedMoves() {
        return refused;
    }

    PhysicalMemory memory() {
        return kernel.memory;
    }
}
