package org.pagefabric.hw.nic;

import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.hw.net.Packet;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.sim.stat.Counter;

/**
 * The NIC's DMA engine: moves bytes between packet buffers and host memory through a region's
 * translation entries, looked up in the {@link TranslationCache}.
 *
 * <p>An access first translates every page it touches and only then copies, so an access that
 * meets a non-present (or, for a write, read-only) entry moves nothing; {@link #faultAddress()}
 * then names the first byte that could not be translated.
 *
 * <p>Each access runs within one simulator event. That is what makes invalidations safe here:
 * an invalidation runs in an event of its own, so it always falls between two accesses, never
 * within one (001: "HW will complete all in-flight memory accesses to an invalidated range
 * before completing the invalidation").
 *
 * <p>Misses of the NIC's own translation cache met here (a packet's payload read or placement)
 * are counted in {@code translation_miss_uncharged_ps}, not spent in virtual time.
 *
 * <p>Packet accesses ({@link #readPacket}, {@link #writePacket}) and the timed accesses
 * ({@link #readTimed}, {@link #writeTimed}) of an IOMMU-translated region pass the IOMMU path's
 * translation stage, and {@link #readyAt()} says when the data is ready: the caller waits for it
 * (a UD datagram leaves or lands then; the reliable transport holds an RC packet, or the ACK and
 * delivery of a placed one, until then). Atomics' 8-byte accesses ({@link #read}, {@link #write})
 * are not timed.
 */
final class DmaEngine {

    private final PhysicalMemory memory;
    private final TranslationCache cache;
    private final long missPs;
    private final Counter bytesRead;
    private final Counter bytesWritten;
    private final Counter translationFaults;
    private final Counter unchargedMissPs;
    /** Frames of the pages of the current access; grown to the largest access seen. */
    private long[] frames = new long[4];
    private long faultAddress;
    private long readyAt;
    /** Translation of {@link AccessFlags#IOMMU} regions, or null while the NIC has no IOMMU. */
    private IommuDmaPath iommuPath;
    /** Whether accesses to on-demand regions set their entries' accessed and dirty bits. */
    private boolean accessBits;

    DmaEngine(PhysicalMemory memory, TranslationCache cache, long missPs, Counter bytesRead, Counter bytesWritten,
              Counter translationFaults, Counter unchargedMissPs) {
        this.memory = memory;
        this.cache = cache;
        this.missPs = missPs;
        this.bytesRead = bytesRead;
        this.bytesWritten = bytesWritten;
        this.translationFaults = translationFaults;
        this.unchargedMissPs = unchargedMissPs;
    }

    /** Makes accesses to on-demand regions set the accessed (and, writing, dirty) bit of their entries. */
    void setAccessBits(boolean on) {
        this.accessBits = on;
    }

    /** Routes the translation of IOMMU-translated regions through {@code path}. */
    void setIommuPath(IommuDmaPath path) {
        this.iommuPath = path;
    }

    /** After a failed access: the first virtual address it could not translate. */
    long faultAddress() {
        return faultAddress;
    }

    /**
     * After a timed access: when its data is ready (reaches memory, or is available to the
     * NIC), or 0 if its translation cost no time (not IOMMU-translated): the caller takes the
     * later of this and now.
     */
    long readyAt() {
        return readyAt;
    }

    /** Reads {@code len} bytes at {@code va}; false (nothing read) if a page is not present. */
    boolean read(MemoryRegion mr, long va, byte[] dst, int off, int len) {
        return read(mr, va, dst, off, len, false);
    }

    /** As {@link #read}, with the translation timed: see {@link #readyAt()}. */
    boolean readTimed(MemoryRegion mr, long va, byte[] dst, int off, int len) {
        return read(mr, va, dst, off, len, true);
    }

    /** As {@link #write}, with the translation timed: see {@link #readyAt()}. */
    boolean writeTimed(MemoryRegion mr, long va, byte[] src, int off, int len) {
        return write(mr, va, src, off, len, true);
    }

    private boolean read(MemoryRegion mr, long va, byte[] dst, int off, int len, boolean timed) {
        if (!translate(mr, va, len, false, timed)) {
            return false;
        }
        copyTranslated(false, va, dst, off, len);
        bytesRead.add(len);
        return true;
    }

    /** Writes {@code len} bytes at {@code va}; false (nothing written) if a page is not present or read-only. */
    boolean write(MemoryRegion mr, long va, byte[] src, int off, int len) {
        return write(mr, va, src, off, len, false);
    }

    private boolean write(MemoryRegion mr, long va, byte[] src, int off, int len, boolean timed) {
        if (!translate(mr, va, len, true, timed)) {
            return false;
        }
        copyTranslated(true, va, src, off, len);
        bytesWritten.add(len);
        return true;
    }

    /** Copies between {@code buf} and the frames {@link #translate} just found for {@code [va, va+len)}. */
    private void copyTranslated(boolean toMemory, long va, byte[] buf, int off, int len) {
        int done = 0;
        for (int i = 0; done < len; i++) {
            int inPage = (int) ((va + done) & (PhysicalMemory.PAGE_SIZE - 1));
            int n = Math.min(len - done, PhysicalMemory.PAGE_SIZE - inPage);
            if (toMemory) {
                memory.write(frames[i], inPage, buf, off + done, n);
            } else {
                memory.read(frames[i], inPage, buf, off + done, n);
            }
            done += n;
        }
    }

    /**
     * Reads a packet's payload at {@code va}, timed (see {@link #readyAt()}). Bulk data written as one content-tag stream travels
     * as that tag and stream position (nobody reads it on the way, and the receiver writes the
     * same tag run), anything else as bytes; false (nothing read) if a page is not present.
     */
    boolean readPacket(MemoryRegion mr, long va, Packet p) {
        int len = p.length;
        if (!translate(mr, va, len, false, true)) {
            return false;
        }
        if (len > 0 && asTagRun(va, len)) {
            p.hasBytes = false;
            p.contentTag = tagAndPos[0];
            p.tagPosition = runStart;
        } else {
            copyTranslated(false, va, p.bytes, 0, len);
            p.hasBytes = true;
        }
        bytesRead.add(len);
        return true;
    }

    /** Places a packet's payload (bytes or a tag run) at {@code va}, timed (see {@link #readyAt()}); false (nothing written) if a page is not writable. */
    boolean writePacket(MemoryRegion mr, long va, Packet p) {
        if (p.hasBytes) {
            return write(mr, va, p.bytes, 0, p.length, true);
        }
        int len = p.length;
        if (!translate(mr, va, len, true, true)) {
            return false;
        }
        int done = 0;
        for (int i = 0; done < len; i++) {
            int inPage = (int) ((va + done) & (PhysicalMemory.PAGE_SIZE - 1));
            int n = Math.min(len - done, PhysicalMemory.PAGE_SIZE - inPage);
            memory.writeTag(frames[i], inPage, n, p.contentTag, p.tagPosition + done);
            done += n;
        }
        bytesWritten.add(len);
        return true;
    }

    private final long[] tagAndPos = new long[2];
    private long runStart;

    /** Whether the translated pages of {@code [va, va+len)} hold one contiguous run of one tag stream. */
    private boolean asTagRun(long va, int len) {
        int done = 0;
        long tag = 0;
        long expect = 0;
        for (int i = 0; done < len; i++) {
            int inPage = (int) ((va + done) & (PhysicalMemory.PAGE_SIZE - 1));
            int n = Math.min(len - done, PhysicalMemory.PAGE_SIZE - inPage);
            if (!memory.tagRun(frames[i], inPage, n, tagAndPos)) {
                return false;
            }
            if (i == 0) {
                tag = tagAndPos[0];
                runStart = tagAndPos[1];
            } else if (tagAndPos[0] != tag || tagAndPos[1] != expect) {
                return false;
            }
            expect = tagAndPos[1] + n;
            done += n;
        }
        tagAndPos[0] = tag;
        return true;
    }

    private boolean translate(MemoryRegion mr, long va, int len, boolean write, boolean timed) {
        readyAt = 0;
        if (len == 0) {
            return true;
        }
        long first = va >>> PhysicalMemory.PAGE_SHIFT;
        int pages = (int) (((va + len - 1) >>> PhysicalMemory.PAGE_SHIFT) - first + 1);
        if (pages > frames.length) {
            frames = new long[Math.max(pages, frames.length * 2)];
        }
        if (mr.iommuTranslated()) {
            if (iommuPath == null || !iommuPath.translate(mr, va, pages, write, frames, timed)) {
                if (timed && iommuPath != null) {
                    readyAt = iommuPath.readyAt(); // an access an interceptor took lands then
                }
                faultAddress = iommuPath == null ? va : iommuPath.faultAddress();
                translationFaults.increment();
                return false;
            }
            if (timed) {
                readyAt = iommuPath.readyAt();
            }
            return true;
        }
        long need = Pte.PRESENT | (write ? Pte.WRITABLE : 0);
        long missesBefore = cache.misses();
        try {
            for (int i = 0; i < pages; i++) {
                long e = cache.entry(mr, first + i - mr.firstPage());
                if (!Pte.has(e, need)) {
                    faultAddress = Math.max(va, (first + i) << PhysicalMemory.PAGE_SHIFT);
                    translationFaults.increment();
                    return false;
                }
                frames[i] = Pte.frame(e);
            }
            if (accessBits && mr.onDemand()) {
                markAccessed(mr, first - mr.firstPage(), pages, write);
            }
            return true;
        } finally {
            unchargedMissPs.add((cache.misses() - missesBefore) * missPs);
        }
    }

    /**
     * Sets the accessed (and dirty) bits in the region's table itself, as a CPU's page walker does
     * in its page table: the cache holds translations, the bits live in the table the driver reads.
     */
    private static void markAccessed(MemoryRegion mr, long page, int pages, boolean write) {
        long bits = Pte.ACCESSED | (write ? Pte.DIRTY : 0);
        TranslationTable t = mr.table();
        for (int i = 0; i < pages; i++) {
            long e = t.get(page + i);
            if ((e & bits) != bits) {
                t.set(page + i, e | bits);
            }
        }
    }

    /**
     * Looks up the entries of {@code [va, va + len)} through the cache, as the NIC does when it
     * starts a message, and returns how many missed: the caller charges them in time.
     */
    int warm(MemoryRegion mr, long va, long len) {
        if (len == 0 || mr.iommuTranslated()) {
            return 0;
        }
        long missesBefore = cache.misses();
        for (long page = va >>> PhysicalMemory.PAGE_SHIFT; page <= (va + len - 1) >>> PhysicalMemory.PAGE_SHIFT; page++) {
            cache.entry(mr, page - mr.firstPage());
        }
        return (int) (cache.misses() - missesBefore);
    }

    /**
     * The first address of {@code [va, va + len)} whose entry does not allow the access, or -1 if
     * all do. It reads the region's table itself, outside the cache: the NIC's check that a work
     * request's buffers are mapped before it starts (whose cost is the start's lookups, charged
     * through {@link #warm}).
     */
    static long firstUnmapped(MemoryRegion mr, long va, long len, boolean write) {
        // An IOMMU-translated region is never checked ahead: each access faults on its own (PART).
        if (len == 0 || mr.iommuTranslated()) {
            return -1;
        }
        long need = Pte.PRESENT | (write ? Pte.WRITABLE : 0);
        for (long page = va >>> PhysicalMemory.PAGE_SHIFT; page <= (va + len - 1) >>> PhysicalMemory.PAGE_SHIFT; page++) {
            if (!Pte.has(mr.table().get(page - mr.firstPage()), need)) {
                return Math.max(va, page << PhysicalMemory.PAGE_SHIFT);
            }
        }
        return -1;
    }
}
