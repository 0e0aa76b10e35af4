package org.pagefabric.hw.os;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The footprint targets: idle nodes well under 500 KB each; 64 GiB mapped with 1 GiB touched under 200 MB. */
class MemoryFootprintTest {
    private static final long GIB = 1L << 30;
    private static final long MB = 1_000_000;

    @Test
    void fourThousandIdleNodesFitInTwoGigabytes() {
        MemoryFootprint.Report r = MemoryFootprint.idleNodes(4096, 64 * GIB, TestKernels.costs());
        System.out.println(r);
        assertTrue(r.modelBytes() / 4096 < 50_000, "model estimate per idle node: " + r.modelBytes() / 4096 + " B");
        assertTrue(r.measuredBytes() < 2_000 * MB, "measured: " + r.measuredBytes() + " B");
        assertTrue(r.measuredBytes() / 4096 < 500_000, "measured per node: " + r.measuredBytes() / 4096 + " B");
    }

    @Test
    void sixtyFourGibMappedWithOneGibTouchedStaysUnder200Mb() {
        MemoryFootprint.Report zero = MemoryFootprint.touchedAddressSpace(64 * GIB, 64 * GIB, GIB, ThpMode.NEVER, false,
                TestKernels.costs());
        System.out.println(zero);
        assertEquals(GIB / Kernel.PAGE_SIZE, zero.residentPages());
        assertEquals(3 + 512, zero.pageTables(), "root, one level-3, one level-2 and 512 level-1 tables");
        assertTrue(zero.modelBytes() < 200 * MB, "model: " + zero.modelBytes());
        assertTrue(zero.measuredBytes() < 200 * MB, "measured: " + zero.measuredBytes());
        MemoryFootprint.Report tagged = MemoryFootprint.touchedAddressSpace(64 * GIB, 64 * GIB, GIB, ThpMode.NEVER, true,
                TestKernels.costs());
        System.out.println(tagged);
        assertTrue(tagged.measuredBytes() < 200 * MB, "measured with a content tag on every page: " + tagged.measuredBytes());
    }
}
