package org.pagefabric.hw.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.iommu.FaultReason;
import org.pagefabric.hw.iommu.Translation;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.MapFlags;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.sim.Simulator;

/** The IOMMU of a PART node walks the process's own page table. */
class SharedVirtualAddressingTest {
    @Test
    void theDeviceSeesWhatTheKernelMapsFaultsOnWhatItDoesNotAndFollowsMigration() {
        Cluster c = Cluster.build(new Simulator(1), ProfileRegistry.load("part-forth"), 2);
        Node n = c.node(0);
        assertNotNull(n.iommu(), "part-forth translates through the SMMU");
        Kernel k = n.kernel();
        AddressSpace as = k.createProcess(Long.MAX_VALUE, true);
        long base = k.mmap(as, 0, 16 * Kernel.PAGE_SIZE, Prot.READ_WRITE, MapFlags.NONE).address();
        SharedVirtualAddressing.bind(n.iommu(), 3, as);

        Translation t = n.iommu().translate(3, base, true);
        assertFalse(t.ok(), "not yet touched: the walk finds no present entry");
        assertEquals(FaultReason.NOT_PRESENT, t.fault());

        k.touch(as, base, true);
        Translation ok = n.iommu().translate(3, base + 100, true);
        assertTrue(ok.ok());
        assertEquals(Pte.frame(as.translate(base)), ok.frame());
        assertTrue(ok.levelsWalked() > 0);

        long before = ok.frame();
        assertEquals(null, k.migrate(as, base).error());
        n.iommu().invalidatePage(3, base);
        Translation moved = n.iommu().translate(3, base, false);
        assertTrue(moved.ok());
        assertEquals(Pte.frame(as.translate(base)), moved.frame());
        assertTrue(moved.frame() != before, "after migration and invalidation the device uses the new frame");
    }
}
