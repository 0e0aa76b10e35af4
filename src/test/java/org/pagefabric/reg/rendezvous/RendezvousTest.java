package org.pagefabric.reg.rendezvous;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.pin.PinEverything;
import org.pagefabric.reg.pinning.PinnedRange;
import org.pagefabric.reg.pinning.RangePinner;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.WorkloadRegistry;

class RendezvousTest {
    private static final Profile PROFILE = ProfileRegistry.resolve("default");
    private static final long PAGE = Kernel.PAGE_SIZE;

    private static Map<String, Object> point(Profile p, String policy, String workload, long size, int iterations) {
        return PointRun.run(p, policy, WorkloadRegistry.standard().byName(workload), size, iterations, 7);
    }

    private static double latency(String policy, long size) {
        return ((Number) point(PROFILE, policy, "latency", size, 10).get("latency_us")).doubleValue();
    }

    @ParameterizedTest
    @ValueSource(strings = {Rendezvous.WITH_UNPIN, Rendezvous.NO_UNPIN})
    void dataArrivesEndToEndForEverySizeAndWorkload(String policy) {
        for (String workload : new String[] {"latency", "bandwidth", "pingpong"}) {
            for (long size : new long[] {8, 4099, 65536, 1 << 20}) {
                assertEquals(true, point(PROFILE, policy, workload, size, 20).get("verified"),
                        policy + " " + workload + " " + size);
            }
        }
    }

    @Test
    void unpinningEveryTimeCostsMoreThanKeepingTheTargetPinned() {
        for (long size : new long[] {8, 65536, 1 << 20}) {
            double unpin = latency(Rendezvous.WITH_UNPIN, size);
            double keep = latency(Rendezvous.NO_UNPIN, size);
            double pinAll = latency(PinEverything.NAME, size);
            assertTrue(unpin > keep, size + " B: with unpin " + unpin + " us, without " + keep + " us");
            // after warm-up, no-unpin still hand-shakes before every put: slower than pin-all
            assertTrue(keep > pinAll, size + " B: no-unpin " + keep + " us, pin-all " + pinAll + " us");
        }
    }

    @Test
    void unpinCostGrowsWithTheDeregistrationCost() {
        Profile slowDeregistration = PROFILE.withOverrides(Map.of("nic.deregister.base", "200us"), "test");
        double base = ((Number) point(PROFILE, Rendezvous.WITH_UNPIN, "latency", 8, 10).get("latency_us")).doubleValue();
        double slow = ((Number) point(slowDeregistration, Rendezvous.WITH_UNPIN, "latency", 8, 10).get("latency_us"))
                .doubleValue();
        double keepSlow = ((Number) point(slowDeregistration, Rendezvous.NO_UNPIN, "latency", 8, 10).get("latency_us"))
                .doubleValue();
        assertTrue(slow > base, "a dearer deregistration must lengthen with-unpin puts: " + slow + " vs " + base);
        assertEquals(latency(Rendezvous.NO_UNPIN, 8), keepSlow, 1e-9, "no-unpin never deregisters in steady state");
    }

    /** Rank 0 puts {@code ranges} pages, one distinct target page each, from one source page. */
    private static Job putToDistinctPages(Profile p, Rendezvous policy, int ranges, long[] targetPinnedAfterEach) {
        Simulator sim = new Simulator(3);
        Job job = new Job(sim, p, 2, ranges * PAGE, policy);
        Rank src = job.rank(0);
        Rank dst = job.rank(1);
        new SimProcess(sim, src.node(), "rank0", ctx -> {
            for (int i = 0; i < ranges; i++) {
                src.write(ctx, dst, 0, i * PAGE, 64, i);
                assertEquals(Outcome.SUCCESS, src.awaitSend(ctx).status());
                targetPinnedAfterEach[i] = policy.pinnedBytes(dst.endpoint());
            }
        }).start();
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        return job;
    }

    @Test
    void withUnpinTheTargetHoldsNothingAfterEachPut() {
        Rendezvous policy = new Rendezvous(PROFILE, true);
        long[] after = new long[6];
        Job job = putToDistinctPages(PROFILE, policy, after.length, after);
        for (long bytes : after) {
            assertEquals(0, bytes);
        }
        assertEquals(0, job.rank(1).process().pinnedPages());
        assertEquals(0, policy.rangesPinnedForPeers(job.rank(1).endpoint()));
        // the source stays in the local pin cache: one page, pinned once, hit ever after
        assertEquals(PAGE, policy.pinnedBytes(job.rank(0).endpoint()));
        assertEquals(1, policy.localCache(job.rank(0).endpoint()).misses());
        assertEquals(after.length - 1, policy.localCache(job.rank(0).endpoint()).hits());
    }

    @Test
    void withoutUnpinTheTargetsPinnedMemoryGrowsWithTheWorkingSet() {
        Rendezvous policy = new Rendezvous(PROFILE, false);
        long[] after = new long[6];
        Job job = putToDistinctPages(PROFILE, policy, after.length, after);
        for (int i = 0; i < after.length; i++) {
            assertEquals((i + 1) * PAGE, after[i], "after put " + i);
        }
        assertEquals(after.length, job.rank(1).process().pinnedPages());
    }

    @Test
    void withoutUnpinEveryPutHandshakesButARepeatedOneDoesNotPinAgain() {
        Rendezvous policy = new Rendezvous(PROFILE, false);
        Simulator sim = new Simulator(3);
        Job job = new Job(sim, PROFILE, 2, PAGE, policy);
        Rank src = job.rank(0);
        Rank dst = job.rank(1);
        long[] took = new long[3];
        new SimProcess(sim, src.node(), "rank0", ctx -> {
            for (int i = 0; i < took.length; i++) {
                long t0 = ctx.now();
                src.write(ctx, dst, 0, 0, 8, i);
                src.awaitSend(ctx);
                took[i] = ctx.now() - t0;
            }
        }).start();
        sim.run();
        assertTrue(took[0] > took[1], "the first put pins at both ends: " + took[0] + " vs " + took[1] + " ps");
        assertEquals(took[1], took[2]);
        assertEquals(1, policy.rangesPinnedForPeers(dst.endpoint()));
        assertEquals(took.length, policy.count(org.pagefabric.reg.Metric.HANDSHAKES, src.endpoint()), "004 §4.2: every put sends the pin request");
        double pinAll = latency(PinEverything.NAME, 8);
        assertTrue(took[1] / 1e6 > pinAll, "a put into a kept range still waits for the handshake: "
                + took[1] / 1e6 + " us vs pin-all " + pinAll + " us");
        var stats = sim.statistics();
        assertEquals(2L, ((org.pagefabric.sim.stat.Counter) stats.get(Rendezvous.NO_UNPIN + ".hits")).value());
        assertEquals(1L, ((org.pagefabric.sim.stat.Counter) stats.get(Rendezvous.NO_UNPIN + ".misses")).value());
    }

    @Test
    void aKeptRangeAnswersEveryRequestItCovers() {
        Simulator sim = new Simulator(1);
        Job job = new Job(sim, PROFILE, 2, 8 * PAGE, new PinEverything(PROFILE));
        RangePinner pinner = new RangePinner(PROFILE, job.rank(1).endpoint());
        long base = job.rank(1).segment();
        KeptRanges kept = new KeptRanges();
        PinnedRange wide = pinner.pin(base, 4 * PAGE).range();
        PinnedRange narrow = pinner.pin(base + PAGE, 100).range();
        kept.add(wide);
        kept.add(narrow);
        assertEquals(narrow, kept.find(base + PAGE + 8, 16));
        // the nearest range below does not cover it, a wider one further below does
        assertEquals(wide, kept.find(base + 2 * PAGE + 8, PAGE));
        assertEquals(null, kept.find(base + 3 * PAGE + 8, PAGE), "past the end of every kept range");
        assertEquals(null, kept.find(base - PAGE, 8));
    }

    @Test
    void theLocalPinCacheStaysWithinItsBound() {
        Profile small = PROFILE.withOverrides(Map.of("rendezvous.local_cache.size", (3 * PAGE) + " B"), "test");
        Rendezvous policy = new Rendezvous(small, true);
        int sources = 10;
        long[] cached = new long[sources];
        Simulator sim = new Simulator(3);
        Job job = new Job(sim, small, 2, sources * PAGE, policy);
        Rank src = job.rank(0);
        Rank dst = job.rank(1);
        new SimProcess(sim, src.node(), "rank0", ctx -> {
            for (int round = 0; round < 2; round++) {
                for (int i = 0; i < sources; i++) {
                    src.write(ctx, dst, i * PAGE, 0, 128, round * sources + i);
                    src.awaitSend(ctx);
                    cached[i] = policy.localCache(src.endpoint()).pinnedBytes();
                }
            }
        }).start();
        sim.run();
        LocalPinCache cache = policy.localCache(src.endpoint());
        for (long bytes : cached) {
            assertTrue(bytes <= 3 * PAGE, "cache holds " + bytes + " B over its bound");
        }
        assertEquals(3 * PAGE, cache.pinnedBytes());
        assertEquals(3, src.process().pinnedPages(), "the kernel's pinned_vm agrees with the cache");
        // cycling through more sources than fit evicts the least recently used: every access misses
        assertEquals(2L * sources, cache.misses());
        assertEquals(2L * sources - 3, cache.evictions());
    }

    @Test
    void rangesInUseAreNotEvictedEvenOverTheBound() {
        Simulator sim = new Simulator(1);
        Job job = new Job(sim, PROFILE, 2, 4 * PAGE, new PinEverything(PROFILE));
        Rank r = job.rank(0);
        RangePinner pinner = new RangePinner(PROFILE, r.endpoint());
        LocalPinCache cache = new LocalPinCache(pinner, PAGE);
        LocalPinCache.Acquired a = cache.acquire(r.segment(), 100);
        LocalPinCache.Acquired b = cache.acquire(r.segment() + 2 * PAGE, 100);
        assertTrue(!a.hit() && !b.hit() && a.costPs() > 0);
        assertEquals(2 * PAGE, cache.pinnedBytes(), "both in use");
        assertTrue(cache.release(r.segment(), 100) > 0, "releasing over the bound unpins, which costs");
        assertEquals(PAGE, cache.pinnedBytes());
        assertTrue(cache.acquire(r.segment() + 2 * PAGE + 8, 16).hit(), "a covered buffer hits");
        assertEquals(1, cache.evictions());
    }

    @Test
    void runsAreDeterministic() {
        for (String policy : new String[] {Rendezvous.WITH_UNPIN, Rendezvous.NO_UNPIN}) {
            assertEquals(point(PROFILE, policy, "bandwidth", 65536, 30), point(PROFILE, policy, "bandwidth", 65536, 30));
        }
    }
}
