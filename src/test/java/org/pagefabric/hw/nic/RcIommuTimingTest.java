package org.pagefabric.hw.nic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.iommu.Iommu;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.param.IommuParameters;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;

/** The IOMMU's translation time is spent on the reliable transport's RC paths too. */
class RcIommuTimingTest {
    private static final long PAGE = Kernel.PAGE_SIZE;

    /** Latencies (post to completion) of {@code count} one-page RDMA writes, pages made present first. */
    private static List<Long> writes(Job job, int count) {
        List<Long> out = new ArrayList<>();
        Rank src = job.rank(0);
        Rank dst = job.rank(1);
        dst.node().kernel().writeTag(dst.process(), dst.segment(), PAGE, 0x51L, 0);
        new SimProcess(job.simulator(), "writer", ctx -> {
            for (int i = 0; i < count; i++) {
                src.node().kernel().writeTag(src.process(), src.segment(), PAGE, 0x7A60L + i, 0);
                long start = job.simulator().now();
                src.write(ctx, dst, 0, 0, PAGE, i);
                CompletionEntry wc = src.awaitSend(ctx);
                assertEquals(Outcome.SUCCESS, wc.status());
                out.add(job.simulator().now() - start);
            }
        }).start();
        job.simulator().run();
        return out;
    }

    private static long counter(Job job, String name) {
        var s = job.simulator().statistics().get(name);
        return s == null ? 0 : ((org.pagefabric.sim.stat.Counter) s).value();
    }

    @Test
    void aColdIotlbDelaysAnRdmaWriteByItsWalksAndAWarmOneCostsTheSameEachTime() {
        Profile profile = ProfileRegistry.load("part-forth");
        Job job = new Job(new Simulator(7), profile, 2, PAGE, PolicyRegistry.standard().create("part-pio", profile));
        List<Long> t = writes(job, 3);
        Iommu iommu = job.rank(0).node().iommu();
        long walk = iommu.walker().lastLevels() * profile.time(IommuParameters.WALK_PER_LEVEL)
                + profile.time(IommuParameters.CONTEXT_FETCH);
        long extra = t.get(0) - t.get(1);
        // The source's walk holds the first packet; the destination's overlaps later arrivals or adds once more.
        assertTrue(extra >= walk && extra <= 2 * walk, "cold - warm = " + extra + " ps, one walk = " + walk + " ps");
        assertEquals(t.get(1), t.get(2), "a warm IOTLB costs the same every time");
        String nic0 = job.rank(0).node().nic().name();
        String nic1 = job.rank(1).node().nic().name();
        assertTrue(counter(job, nic0 + ".iommu_translation_charged_ps") > 0, "payload reads are charged");
        assertTrue(counter(job, nic1 + ".iommu_translation_charged_ps") > 0, "placements are charged");
        assertEquals(0, counter(job, nic0 + ".iommu_translation_uncharged_ps"));
        assertEquals(0, counter(job, nic1 + ".iommu_translation_uncharged_ps"));
    }

    @Test
    void pinnedRegionsOnANodeWithAnIommuKeepTheirTimingExactly() {
        Profile with = ProfileRegistry.load("part-forth");
        Profile without = with.withOverrides(Map.of("nic.iommu", "false"), "test");
        List<Long> a = writes(new Job(new Simulator(7), with, 2, PAGE, PolicyRegistry.standard().create("pin-all", with)), 3);
        List<Long> b = writes(new Job(new Simulator(7), without, 2, PAGE, PolicyRegistry.standard().create("pin-all", without)), 3);
        assertEquals(b.get(1), b.get(2));
        // pin-all's regions are the NIC's own, never translated by the IOMMU: nothing is charged, nothing held.
        assertEquals(b, a);
    }
}
