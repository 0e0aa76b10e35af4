package org.pagefabric.reg.part;

import org.pagefabric.config.Profile;
import org.pagefabric.hw.iommu.IotlbLevel;
import org.pagefabric.hw.iommu.IotlbLevelConfig;
import org.pagefabric.hw.iommu.ReplacementPolicy;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.param.CpuParameters;

/**
 * The main TLB of the core a process touches its pages from, for timing only (translations come
 * from the page tables): a touch of a resident page whose entry is cached costs a line fill, one
 * whose entry was evicted also a page-table walk. A sweep over more pages than the TLB holds
 * misses on every page (LRU evicts each entry before the sweep comes back to it), so touching a
 * resident buffer costs more per page once it outgrows the TLB's reach, the growth 000 §V reports
 * for large buffers (an outcome part.fig7 checks, not an input here).
 */
final class CoreTlb {
    private final IotlbLevel entries;
    private final long walkPs;

    CoreTlb(Profile p) {
        this.entries = new IotlbLevel(new IotlbLevelConfig(p.intCount(CpuParameters.TLB_ENTRIES),
                p.intCount(CpuParameters.TLB_WAYS), ReplacementPolicy.LRU, 0), null);
        this.walkPs = p.time(CpuParameters.TLB_WALK);
    }

    /** The page-table walk a touch of the resident page at {@code va} needs: 0 on a hit. */
    long walk(AddressSpace as, long va) {
        long key = ((long) as.id() << 40) | (va / Kernel.PAGE_SIZE);
        if (entries.lookup(key) >= 0) {
            return 0;
        }
        entries.insert(key, 0);
        return walkPs;
    }
}
