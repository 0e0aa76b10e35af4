package org.pagefabric.hw.os;

import org.pagefabric.hw.mem.FrameTable;
import org.pagefabric.hw.mem.PageBacking;

/**
 * Page migration (migrate_pages, as NUMA balancing and compaction use it): the page's content
 * moves to another frame and every mapping is repointed, the MMU notifiers seeing MIGRATE first
 * so that mirrors drop the old frame. A pinned page is refused with EBUSY, which is exactly why
 * pinning defeats compaction and NUMA placement.
 *
 * <p>A range ({@link #migrateRange}) moves page by page, one notifier range each, unless
 * {@link KernelConfig#unmapBatch()} is above 1: then up to that many adjacent small pages mapped
 * once are moved together under one notifier range (Linux's migrate_pages_batch batches the
 * unmap and TLB flush of a list of folios; 001's future work asks the same of the notifiers).
 */
final class Migration {
    private final Kernel k;

    Migration(Kernel kernel) {
        this.k = kernel;
    }

    PageOpResult migrate(AddressSpace as, long va) {
        long pte = as.pageTable.leaf(va);
        if ((pte & Pte.PRESENT) == 0) {
            return new PageOpResult(Errno.EINVAL, 0);
        }
        return migrateFrame(Pte.frame(pte));
    }

    MigrateResult migrateRange(AddressSpace as, long va, int pages) {
        long mark = k.spent;
        int batch = k.config.unmapBatch();
        long moved = 0;
        int i = 0;
        while (i < pages) {
            long at = va + (long) i * Kernel.PAGE_SIZE;
            int run = batch == 1 ? 0 : batchable(as, at, Math.min(batch, pages - i));
            if (run > 1) {
                moved += moveRun(as, at, run);
                i += run;
                continue;
            }
            long pte = as.pageTable.leaf(at);
            if ((pte & Pte.PRESENT) != 0 && migrateFrame(Pte.frame(pte)).done()) {
                moved += (pte & Pte.HUGE) != 0 ? Kernel.HUGE_PAGES : 1;
            }
            i += (pte & Pte.HUGE) != 0 ? (int) Math.min(pages - i, Kernel.HUGE_PAGES) : 1;
        }
        return new MigrateResult(moved, k.spent - mark);
    }

    /** Leading pages from {@code va}, up to {@code max}, that are small, present, mapped once, unpinned, idle. */
    private int batchable(AddressSpace as, long va, int max) {
        int n = 0;
        while (n < max) {
            long pte = as.pageTable.leaf(va + (long) n * Kernel.PAGE_SIZE);
            if ((pte & (Pte.PRESENT | Pte.HUGE)) != Pte.PRESENT) {
                break;
            }
            long f = Pte.frame(pte);
            int flags = k.frames.flags(f);
            if ((flags & (FrameTable.ALLOCATED | FrameTable.ANON)) != (FrameTable.ALLOCATED | FrameTable.ANON)
                    || (flags & (FrameTable.HUGE_HEAD | FrameTable.HUGE_TAIL | FrameTable.BUSY)) != 0
                    || k.frames.mapCount(f) != 1 || k.frames.pinCount(f) > 0) {
                break;
            }
            n++;
        }
        return n;
    }

    /** Moves {@code n} batchable pages from {@code va} under one notifier range; returns pages moved. */
    private int moveRun(AddressSpace as, long va, int n) {
        long[] from = new long[n];
        long[] to = new long[n];
        for (int i = 0; i < n; i++) {
            from[i] = Pte.frame(as.pageTable.leaf(va + (long) i * Kernel.PAGE_SIZE));
            k.frames.set(from[i], FrameTable.BUSY);
        }
        int got = 0;
        while (got < n) {
            long t = k.mapper.allocateAnon();
            if (t < 0) {
                break;
            }
            to[got++] = t;
        }
        for (int i = 0; i < n; i++) {
            k.frames.clear(from[i], FrameTable.BUSY);
        }
        if (got < n) {
            k.stats.migrationsRefused.add(n - got);
        }
        if (got == 0) {
            return 0;
        }
        long end = va + (long) got * Kernel.PAGE_SIZE;
        k.mapper.invalidateStart(as, va, end, InvalidationReason.MIGRATE);
        for (int i = 0; i < got; i++) {
            long at = va + (long) i * Kernel.PAGE_SIZE;
            as.pageTable.setLeaf(at, Pte.withFrame(as.pageTable.leaf(at), to[i]));
        }
        k.mapper.invalidateEnd(as, va, end, InvalidationReason.MIGRATE);
        PageBacking b = k.memory.backing();
        for (int i = 0; i < got; i++) {
            b.movePage(from[i], to[i]);
            k.frames.addMapCount(to[i], 1);
            k.frames.addMapCount(from[i], -1);
            k.rmap.moveAll(from[i], to[i]);
            k.memory.free(from[i]);
        }
        k.charge(k.costs.migratePerPagePs() * got);
        k.stats.migrations.add(got);
        return got;
    }

    PageOpResult migrateFrame(long frame) {
        long mark = k.spent;
        int flags = k.frames.flags(frame);
        if ((flags & (FrameTable.ALLOCATED | FrameTable.ANON)) != (FrameTable.ALLOCATED | FrameTable.ANON)
                || (flags & FrameTable.HUGE_TAIL) != 0 || k.frames.mapCount(frame) == 0) {
            return new PageOpResult(Errno.EINVAL, 0);
        }
        boolean huge = (flags & FrameTable.HUGE_HEAD) != 0;
        int pages = huge ? Kernel.HUGE_PAGES : 1;
        for (int i = 0; i < pages; i++) {
            if (k.frames.pinCount(frame + i) > 0) {
                k.stats.migrationsRefused.increment();
                return new PageOpResult(Errno.EBUSY, 0);
            }
        }
        if ((flags & FrameTable.BUSY) != 0) {
            k.stats.migrationsRefused.increment();
            return new PageOpResult(Errno.EAGAIN, 0);
        }
        k.frames.set(frame, FrameTable.BUSY);
        long target = huge ? k.memory.allocateHuge(FrameTable.ANON) : k.mapper.allocateAnon();
        k.frames.clear(frame, FrameTable.BUSY);
        if (target < 0) {
            k.stats.migrationsRefused.increment();
            return new PageOpResult(Errno.EAGAIN, k.spent - mark);
        }
        int n = k.rmap.count(frame);
        long[] mappings = new long[n];
        for (int i = 0; i < n; i++) {
            mappings[i] = k.rmap.get(frame, i);
        }
        long size = huge ? Kernel.HUGE_SIZE : Kernel.PAGE_SIZE;
        PageBacking b = k.memory.backing();
        for (long m : mappings) {
            AddressSpace as = k.space(ReverseMap.asId(m));
            long va = ReverseMap.va(m);
            k.mapper.invalidateStart(as, va, va + size, InvalidationReason.MIGRATE);
            as.pageTable.setLeaf(va, Pte.withFrame(as.pageTable.leaf(va), target));
            k.mapper.invalidateEnd(as, va, va + size, InvalidationReason.MIGRATE);
        }
        for (int i = 0; i < pages; i++) {
            b.movePage(frame + i, target + i);
            int count = k.frames.mapCount(frame + i);
            k.frames.addMapCount(target + i, count);
            k.frames.addMapCount(frame + i, -count);
        }
        k.rmap.moveAll(frame, target);
        if (huge) {
            k.memory.freeHuge(frame);
        } else {
            k.memory.free(frame);
        }
        k.charge(k.costs.migratePerPagePs() * pages);
        k.stats.migrations.add(pages);
        return new PageOpResult(null, k.spent - mark);
    }
}
