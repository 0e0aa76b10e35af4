package org.pagefabric.reg.part;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.WorkloadRegistry;

/** PART's fault flow end to end, through the fault-latency workload on the part-forth profile. */
class PartFlowTest {
    private static final Profile FORTH = ProfileRegistry.load("part-forth");

    static Map<String, Object> row(Profile p, String policy, long size, double dst, double src, int iterations,
                                   long seed) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("size_B", size);
        params.put("iterations", (long) iterations);
        params.put("fault_fraction", dst);
        params.put("source_fault_fraction", src);
        return PointRun.run(p, policy, WorkloadRegistry.standard().byName("fault-latency"), params, seed);
    }

    private static double d(Map<String, Object> r, String k) {
        return ((Number) r.get(k)).doubleValue();
    }

    @Test
    void destinationFaultIsNackedPagedInAndRetransmittedAfterOneErr() {
        Map<String, Object> r = row(FORTH, "part-pio", 4096, 1, 0, 3, 1);
        assertEquals(true, r.get("verified"));
        assertEquals(1.0, d(r, "fault_pages"), "one faulting page per write");
        assertEquals(1.0, d(r, "errs"), "one explicit retransmission request per write");
        assertEquals(0L, r.get("timeouts"), "the PAGE_FAULT NACK cancels the time-out");
        // One 4 KiB block of 16 packets is sent twice per write (warm-up included): 4 writes.
        assertEquals(4 * 16L, r.get("retransmissions"));
        double sum = d(r, "phase_issue_us") + d(r, "phase_smmu_irq_us") + d(r, "phase_tasklet_us")
                + d(r, "phase_err_us") + d(r, "phase_retransmit_us");
        assertEquals(d(r, "breakdown_us"), sum, 0.01, "the breakdown is the sum of its phases");
        assertEquals(d(r, "latency_us"), sum + d(r, "outside_breakdown_us"), 0.01,
                "what the breakdown leaves out makes up the rest of the latency");
        assertTrue(d(r, "outside_breakdown_us") > 0, "interrupt entry and the helper's wake-up are not phases");
        assertEquals(1.0, d(r, "phase_smmu_irq_us"), 1e-9, "the handler's own run, iommu.fault.interrupt");
        assertEquals(1.0, d(r, "phase_err_us"), 0.05, "the helper's own work (part.err.issue) and the ERR's flight");
        assertTrue(d(r, "phase_tasklet_us") >= 18 && d(r, "phase_tasklet_us") <= 20,
                "one run resolving one fault costs about part.tasklet (fewer reads, a little less)");
    }

    @Test
    void withoutFaultsNothingIsRetransmittedAndPartCostsNoMoreThanTransferOnly() {
        Map<String, Object> part = row(FORTH, "part-pio", 65536, 0, 0, 3, 1);
        Map<String, Object> only = row(FORTH, "transfer-only", 65536, 0, 0, 3, 1);
        assertEquals(0L, part.get("retransmissions"));
        assertEquals(d(only, "latency_us"), d(part, "latency_us"), 1e-9);
        assertEquals(true, part.get("verified"));
    }

    @Test
    void timeOutVariantDropsAndWaitsForTheSourceTimeOut() {
        Map<String, Object> err = row(FORTH, "part-pio", 4096, 1, 0, 3, 1);
        Map<String, Object> tmo = row(FORTH, "part-pio-timeout", 4096, 1, 0, 3, 1);
        assertEquals(true, tmo.get("verified"));
        assertEquals(0.0, d(tmo, "errs"));
        assertEquals(4L, tmo.get("timeouts"), "one time-out per write (warm-up included)");
        assertTrue(d(tmo, "latency_us") > 100, "waits the 100 us time-out");
        assertTrue(d(tmo, "latency_us") > d(err, "latency_us"), "ERR is faster than the time-out");
    }

    @Test
    void sourceFaultIsRecoveredByTheTimeOutWithoutErr() {
        Map<String, Object> r = row(FORTH, "part-pio", 4096, 0, 1, 3, 1);
        assertEquals(true, r.get("verified"));
        assertEquals(0.0, d(r, "errs"), "no ERR for a source fault");
        assertTrue(((Long) r.get("timeouts")) >= 4, "each write's block waits for the source's time-out");
        assertTrue(d(r, "latency_us") > 100);
    }

    @Test
    void pageInVariantsPageInEveryFaultingPageOnceAndPiaRetransmitsLeast() {
        Map<String, Object> pio = row(FORTH, "part-pio", 262144, 1, 0, 2, 1);
        Map<String, Object> pi4 = row(FORTH, "part-pi4", 262144, 1, 0, 2, 1);
        Map<String, Object> pia = row(FORTH, "part-pia", 262144, 1, 0, 2, 1);
        for (Map<String, Object> r : java.util.List.of(pio, pi4, pia)) {
            assertEquals(true, r.get("verified"), r.get("policy").toString());
            assertEquals(64.0, d(r, "pages_paged_in"), "each of the 64 pages is paged in exactly once per write");
        }
        assertTrue((Long) pia.get("retransmissions") < (Long) pio.get("retransmissions"),
                "PIA resolves the rest of the transfer on its first fault: fewer blocks fail");
        assertTrue(d(pia, "errs") < d(pio, "errs"));
        assertTrue(d(pia, "latency_us") < d(pio, "latency_us"), "at 256 KiB paging in ahead pays");
    }

    /** A counter of the point's simulation whose name ends with {@code suffix}. */
    private static long counter(PointRun.Started point, String suffix) {
        for (var s : point.simulator().statistics().all()) {
            if (s instanceof org.pagefabric.sim.stat.Counter c && s.name().endsWith(suffix)) {
                return c.value();
            }
        }
        throw new AssertionError("no counter " + suffix);
    }

    private static PointRun.Started finished(String policy, double dst) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("size_B", 262144L);
        params.put("iterations", 2L);
        params.put("fault_fraction", dst);
        PointRun.Started point = PointRun.start(FORTH, policy, WorkloadRegistry.standard().byName("fault-latency"),
                params, 1);
        assertEquals(true, point.finish().get("verified"));
        return point;
    }

    @Test
    void pagingInAheadWalksThePresentPagesOfItsRangeToo() {
        // get_user_pages over PIA's range looks up and references every page, present or not, and
        // each gets its put_page; only the missing ones are faulted in.
        PointRun.Started pia = finished("part-pia", 0.1);
        long walked = counter(pia, "node1.kernel.gup.pinned");
        long broughtIn = counter(pia, "node1.part.pagesPagedIn");
        assertTrue(broughtIn > 0);
        assertTrue(walked > 3 * broughtIn, "the rest of the transfer is walked: " + walked + " vs " + broughtIn);
        assertEquals(walked, counter(pia, "node1.kernel.gup.unpinned"), "nothing stays pinned");
        // PIO's range is the faulting page alone: it walks only what it brings in.
        PointRun.Started pio = finished("part-pio", 0.1);
        assertEquals(counter(pio, "node1.part.pagesPagedIn"), counter(pio, "node1.kernel.gup.pinned"));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void packetLossOnTopOfRandomFaultsStillDeliversEveryByte(long seed) {
        // A lost ERR would leave its block waiting: the fault-wait time-out is the backstop under loss.
        Profile lossy = FORTH.withOverrides(Map.of("link.loss", "0.02", "transport.fault_wait_timeout", "300 us",
                "transport.retry_limit", "50"), "test");
        java.util.Random pick = new java.util.Random(seed);
        double dst = 0.1 + 0.8 * pick.nextDouble();
        double src = pick.nextBoolean() ? 0 : 0.2;
        String policy = new String[] {"part-pio", "part-pi4", "part-pia", "part-pio-timeout"}[(int) (seed % 4)];
        Map<String, Object> r = row(lossy, policy, 65536 + 4096 * pick.nextInt(8), dst, src, 3, seed);
        assertEquals(true, r.get("verified"), r.toString());
        assertTrue((Long) r.get("retransmissions") > 0);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void aLostRetransmissionRequestDoesNotLeaveItsBlockWaitingForever(long seed) {
        // The profile's own fault-wait time-out: with none, a lost ERR deadlocked 3 of these 6 seeds.
        Profile lossy = FORTH.withOverrides(Map.of("link.loss", "0.01"), "test");
        Map<String, Object> r = row(lossy, "part-pio", 65536, 0.5, 0, 5, seed);
        assertEquals(true, r.get("verified"), r.toString());
    }

    @Test
    void sameSeedGivesTheSameRow() {
        assertEquals(row(FORTH, "part-pia", 131072, 0.3, 0, 4, 9), row(FORTH, "part-pia", 131072, 0.3, 0, 4, 9));
    }
}
