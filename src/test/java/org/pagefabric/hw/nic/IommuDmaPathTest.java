package org.pagefabric.hw.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.iommu.Iommu;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;

/** The NIC's DMA path through the IOMMU: translation hits, misses and faults as packets see them. */
class IommuDmaPathTest {
    private static final long PAGE = Kernel.PAGE_SIZE;

    /** Two ranks on part-forth under part-pio; {@code body} runs as rank 0. */
    private static Job job(long segment) {
        Simulator sim = new Simulator(7);
        return new Job(sim, ProfileRegistry.load("part-forth"), 2, segment,
                PolicyRegistry.standard().create("part-pio", ProfileRegistry.load("part-forth")));
    }

    private static List<Outcome> writes(Job job, long size, int count, Runnable between) {
        List<Outcome> out = new ArrayList<>();
        Rank src = job.rank(0);
        Rank dst = job.rank(1);
        new SimProcess(job.simulator(), "writer", ctx -> {
            for (int i = 0; i < count; i++) {
                if (i > 0 && between != null) {
                    between.run();
                }
                src.node().kernel().writeTag(src.process(), src.segment(), size, 0x7A60L + i, 0);
                src.write(ctx, dst, 0, 0, size, i);
                out.add(src.awaitSend(ctx).status());
            }
        }).start();
        job.simulator().run();
        return out;
    }

    @Test
    void nodesOfAnIommuProfileTranslateThroughIt() {
        Job job = job(PAGE);
        for (Rank r : job.ranks()) {
            assertNotNull(r.node().iommu());
            assertNotNull(r.node().nic().iommuPath());
            assertTrue(r.endpoint().segmentRegion().iommuTranslated());
            assertEquals(0, r.endpoint().segmentRegion().table().presentEntries(),
                    "the NIC holds no entries of its own");
        }
    }

    @Test
    void firstWriteWalksEachPageOnceThenHitsTheL1() {
        long size = 16 * PAGE; // 256 packets of 256 B over 16 pages
        Job job = job(size);
        Iommu iommu = job.rank(1).node().iommu();
        assertEquals(List.of(Outcome.SUCCESS), writes(job, size, 1, null));
        assertEquals(256, iommu.translations(), "one translation per packet written");
        assertEquals(16, iommu.misses(), "one walk per page");
        assertEquals(240, iommu.hits(0), "the other packets of each page hit the L1 IOTLB");
        assertEquals(0, iommu.faults());
    }

    @Test
    void aWorkingSetAboveTheL1IsServedByTheL2() {
        long size = 256 * PAGE; // 256 pages: more than the L1's 128 entries, within the L2's 2048
        Job job = job(size);
        Iommu iommu = job.rank(1).node().iommu();
        writes(job, size, 2, null);
        assertEquals(256, iommu.misses(), "the second write walks nothing");
        assertTrue(iommu.hits(1) >= 128, "pages evicted from the L1 are found in the L2: " + iommu.hits(1));
    }

    @Test
    void aPageMadeNonPresentIsInvalidatedInTheIotlbAndFaultsInsteadOfUsingItsOldFrame() {
        long size = 4 * PAGE;
        Job job = job(size);
        Rank dst = job.rank(1);
        Iommu iommu = dst.node().iommu();
        List<Outcome> st = writes(job, size, 2, () -> dst.node().kernel().madvise(dst.process(),
                dst.segment() + PAGE, PAGE, Advice.DONTNEED));
        assertEquals(List.of(Outcome.SUCCESS, Outcome.SUCCESS), st);
        assertTrue(iommu.faults() > 0, "the second write met the non-present page");
        assertTrue(dst.node().nic().iommuPath().fifo().logged() > 0, "the refused writes went to the NI FIFO");
        assertTrue(dst.node().kernel().verifyTag(dst.process(), dst.segment(), size, 0x7A61L, 0),
                "the second write's bytes are in the page the process now maps");
    }

    @Test
    void theNiFifoLogsUpToItsCapacityAndCountsTheRest() {
        NiFaultFifo fifo = new NiFaultFifo(2);
        assertTrue(fifo.log(1, 2, 3, 0, 0x1000, 4096, 0x1100, true, 5));
        assertTrue(fifo.log(1, 2, 3, 0, 0x1000, 4096, 0x1200, true, 6));
        assertFalse(fifo.log(1, 2, 3, 0, 0x1000, 4096, 0x1300, true, 7));
        assertEquals(1, fifo.overflows());
        NiFaultFifo.Entry e = new NiFaultFifo.Entry();
        assertTrue(fifo.poll(e));
        assertEquals(0x1100, e.faultAddress);
        assertEquals(5, e.loggedPs);
        assertTrue(fifo.poll(e));
        assertFalse(fifo.poll(e));
        assertThrows(IllegalArgumentException.class, () -> new NiFaultFifo(0));
    }

    @Test
    void aNicWithoutIommuRefusesVirtualRegions() {
        Simulator sim = new Simulator(1);
        Job job = new Job(sim, ProfileRegistry.load("default"), 2, PAGE,
                PolicyRegistry.standard().create("pin-all", ProfileRegistry.load("default")));
        Nic nic = job.rank(0).node().nic();
        assertNull(nic.iommuPath());
        assertThrows(IllegalStateException.class, () -> nic.registerVirtual(job.rank(0).endpoint().pd(),
                job.rank(0).segment(), PAGE, AccessFlags.REMOTE_WRITE));
    }
}
