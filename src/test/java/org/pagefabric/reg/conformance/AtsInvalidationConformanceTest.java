package org.pagefabric.reg.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.hw.nic.IommuDmaPath;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;

/**
 * What PCIe ATS guarantees, under ats-pri: once a device's Invalidation Completion is in, no DMA
 * reaches a page through the translation it invalidated. Random sequences (fixed seeds) of puts
 * into a destination area race with MADV_DONTNEED of random ranges of it on the target node,
 * each waiting for its invalidation as the kernel does. At every completion the NIC's ATC holds,
 * for the range, nothing or the page table's current frame, and no access admitted before the
 * invalidation is still in flight; at the end no DMA wrote a freed frame (a stale translation
 * used), every put completed, and a last put with no unmap beside it delivers the source's bytes.
 */
class AtsInvalidationConformanceTest {
    private static final Profile PROFILE = Conformance.profile("default")
            .withOverrides(Map.of("nic.iommu", "true"), "conformance test");
    private static final long SEGMENT = 1 << 21;
    private static final long DST = SEGMENT / 2;
    private static final long AREA = 256 << 10;
    private static final int STEPS = 12;

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void noDmaReachesAPageThroughATranslationWhoseInvalidationCompleted(long seed) {
        Simulator sim = new Simulator(seed);
        Job job = new Job(sim, PROFILE, 2, SEGMENT, PolicyRegistry.standard().create("ats-pri", PROFILE));
        Rank a = job.rank(0);
        Rank b = job.rank(1);
        IommuDmaPath path = b.node().nic().iommuPath();
        int pasid = b.endpoint().pd().id();
        Kernel k = b.node().kernel();
        SplittableRandom random = new SplittableRandom(seed);
        int[] completed = {0};
        int[] checked = {0};
        boolean[] last = {false};
        new SimProcess(sim, a.node(), "puts", ctx -> {
            for (int i = 0; i < STEPS; i++) {
                long off = random.nextLong(AREA / Kernel.PAGE_SIZE - 16) * Kernel.PAGE_SIZE;
                long len = (1 + random.nextLong(16)) * Kernel.PAGE_SIZE - random.nextLong(64);
                a.node().kernel().writeTag(a.process(), a.segment(), len, 100 + i, 0);
                a.write(ctx, b, 0, DST + off, len, i);
                if (a.awaitSend(ctx).status() == Outcome.SUCCESS) {
                    completed[0]++;
                }
            }
        }).start();
        new SimProcess(sim, b.node(), "unmaps", ctx -> {
            for (int i = 0; i < STEPS; i++) {
                ctx.sleep(random.nextLong(200_000_000L));
                long off = random.nextLong(AREA / Kernel.PAGE_SIZE - 8) * Kernel.PAGE_SIZE;
                long len = (1 + random.nextLong(8)) * Kernel.PAGE_SIZE;
                long inFlight = path.inFlightUntil();
                long wait = k.madvise(b.process(), b.segment() + DST + off, len, Advice.DONTNEED);
                ctx.sleep(wait);
                assertTrue(ctx.now() >= inFlight, "an access admitted before the invalidation lands after its completion");
                for (long va = b.segment() + DST + off; va < b.segment() + DST + off + len; va += Kernel.PAGE_SIZE) {
                    long cached = path.cachedFrame(pasid, va);
                    long pte = b.process().translate(va);
                    assertTrue(cached < 0 || (Pte.has(pte, Pte.PRESENT) && cached == Pte.frame(pte)),
                            "the ATC holds frame " + cached + " for a page the process maps as " + Pte.describe(pte));
                    checked[0]++;
                }
            }
        }).start();
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        assertEquals(STEPS, completed[0], "every put completed");
        assertTrue(checked[0] > 0);
        assertEquals(0, b.node().memory().strayWrites(), "no DMA wrote a frame after it was freed");
        new SimProcess(sim, a.node(), "last", ctx -> {
            long len = AREA / 2;
            a.node().kernel().writeTag(a.process(), a.segment(), len, 999, 0);
            a.write(ctx, b, 0, DST, len, 99);
            last[0] = a.awaitSend(ctx).status() == Outcome.SUCCESS
                    && a.node().kernel().digest(a.process(), a.segment(), len) == k.digest(b.process(), b.segment() + DST, len);
        }).start();
        sim.run();
        assertTrue(last[0], "a put after the races delivers the source's bytes");
    }
}
