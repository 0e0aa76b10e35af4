package org.pagefabric.hw.os;

import org.pagefabric.hw.mem.PageBacking;

/**
 * An exporter moving a whole buffer of device memory (a dma-buf's backing store, e.g. GPU memory
 * evicted or migrated by its driver), modelled as a range of a process's address space whose
 * pages the exporter owns. The move is all or nothing: if any page is pinned (a static
 * attachment called dma_buf_pin) the exporter may not move the buffer and the move is refused
 * with EBUSY; otherwise every present page goes to a new frame under ONE invalidation of the
 * whole range, which is how a dynamic importer hears of it: dma_buf_move_notify calls each
 * importer's move_notify once per buffer (drivers/dma-buf/dma-buf.c), and the RDMA importer zaps
 * the whole MR (drivers/infiniband/hw/mlx5/mr.c, mlx5_ib_dmabuf_invalidate_cb).
 */
final class DeviceMemoryMove {
    private final Kernel k;

    DeviceMemoryMove(Kernel kernel) {
        this.k = kernel;
    }

    PageOpResult move(AddressSpace as, long start, long end) {
        long mark = k.spent;
        k.mapper.splitHugeAt(as, start);
        k.mapper.splitHugeAt(as, end);
        for (long va = start; va < end; va += Kernel.HUGE_SIZE - (va & (Kernel.HUGE_SIZE - 1))) {
            long e = as.pageTable.level2(va);
            if ((e & Pte.HUGE) != 0 && (e & Pte.PRESENT) != 0) {
                k.mapper.splitHugePage(Pte.frame(e));
            }
        }
        int n = 0;
        for (long va = start; va < end; va += Kernel.PAGE_SIZE) {
            long pte = as.pageTable.leaf(va);
            if ((pte & Pte.PRESENT) == 0) {
                continue;
            }
            long frame = Pte.frame(pte);
            if (k.frames.pinCount(frame) > 0 || k.frames.mapCount(frame) != 1) {
                // pinned (static attachment), or shared with another process: the exporter keeps it
                k.stats.migrationsRefused.increment();
                return new PageOpResult(Errno.EBUSY, k.spent - mark);
            }
            n++;
        }
        long[] targets = new long[n];
        // frames first: allocation may reclaim, which must not run inside the invalidation bracket
        for (int i = 0; i < n; i++) {
            targets[i] = k.mapper.allocateAnon();
            if (targets[i] < 0) {
                for (int j = 0; j < i; j++) {
                    k.memory.free(targets[j]);
                }
                k.stats.migrationsRefused.increment();
                return new PageOpResult(Errno.EAGAIN, k.spent - mark);
            }
        }
        k.mapper.invalidateStart(as, start, end, InvalidationReason.MIGRATE);
        PageBacking b = k.memory.backing();
        int i = 0;
        for (long va = start; va < end; va += Kernel.PAGE_SIZE) {
            long pte = as.pageTable.leaf(va);
            if ((pte & Pte.PRESENT) == 0) {
                continue;
            }
            long frame = Pte.frame(pte);
            long target = targets[i++];
            b.movePage(frame, target);
            as.pageTable.setLeaf(va, Pte.withFrame(pte, target));
            k.frames.addMapCount(target, 1);
            k.frames.addMapCount(frame, -1);
            k.rmap.moveAll(frame, target);
            k.memory.free(frame);
        }
        k.mapper.invalidateEnd(as, start, end, InvalidationReason.MIGRATE);
        k.charge(k.costs.migratePerPagePs() * n);
        k.stats.migrations.add(n);
        return new PageOpResult(null, k.spent - mark);
    }

}
