package org.pagefabric.hw.os;

import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.sim.stat.StatisticsRegistry;

/** Kernels for tests, with explicit, distinct costs so that sums can be checked. */
final class TestKernels {
    private TestKernels() {
    }

    /** Every field a different value (ps), so a wrong field shows up in a sum. */
    static OsCosts costs() {
        return new OsCosts(
                1_000_000, // minorFaultPs
                100_000,   // zeroFillPerPagePs
                50_000_000, // majorFaultPs
                20_000_000, // swapOutPerPagePs
                1_000,     // reclaimScanPerPagePs
                300_000,   // cowCopyPerPagePs
                2_000_000, // gupBasePs
                200_000,   // gupPerPagePs
                50_000,    // putPagePerPagePs
                3_000_000, // mlockBasePs
                400_000,   // mlockPerPagePs
                2_500_000, // munlockBasePs
                150_000,   // munlockPerPagePs
                1_500_000, // mmapPs
                1_800_000, // munmapBasePs
                120_000,   // munmapPerPagePs
                1_700_000, // mprotectBasePs
                90_000,    // mprotectPerPagePs
                2_200_000, // migratePerPagePs
                80_000_000, // thpCollapsePs
                5_000_000, // thpSplitPs
                40_000_000, // forkBasePs
                30_000,    // forkPerPagePs
                700_000,   // notifierInvalidatePs
                4_000_000); // tlbShootdownPs
    }

    static Kernel kernel(long ramPages, long swapSlots, ThpMode thp) {
        return kernel(ramPages, swapSlots, thp, 1);
    }

    /** A kernel whose reclaim and migration unmap {@code unmapBatch} pages per notifier range. */
    static Kernel kernel(long ramPages, long swapSlots, ThpMode thp, int unmapBatch) {
        return new Kernel(new PhysicalMemory(ramPages * Kernel.PAGE_SIZE), new Swap(swapSlots), costs(),
                KernelConfig.linux(thp).withUnmapBatch(unmapBatch), new StatisticsRegistry(() -> 0L), "node0.os");
    }
}
