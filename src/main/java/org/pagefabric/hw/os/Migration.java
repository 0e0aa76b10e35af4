package org.pagefabric.hw.os;

import org.pagefabric.hw.mem.FrameTable;
import org.pagefabric.hw.mem.PageBacking;

/**
 * Page migration (migrate_pages, as NUMA balancing and compaction use it): the page's content
 * moves to another frame and every mapping is repointed, the MMU notifiers seeing MIGRATE first
 * so that mirrors drop the old frame. A pinned page is refused with EBUSY, which is exactly why
 * pinning defeats compaction and NUMA placement.
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
        long target = huge ? k.memory.allocateHuge(FrameTable.ANON) : k.allocateAnon();
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
            k.invalidateStart(as, va, va + size, InvalidationReason.MIGRATE);
            as.pageTable.setLeaf(va, Pte.withFrame(as.pageTable.leaf(va), target));
            k.invalidateEnd(as, va, va + size, InvalidationReason.MIGRATE);
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
