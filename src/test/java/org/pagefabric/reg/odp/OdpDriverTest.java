package org.pagefabric.reg.odp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pagefabric.reg.odp.OdpBed.PAGE;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.hw.nic.AccessFlags;
import org.pagefabric.hw.nic.AddressHandle;
import org.pagefabric.hw.nic.AdviseMrFlags;
import org.pagefabric.hw.nic.CompletionQueue;
import org.pagefabric.hw.nic.MemoryRegion;
import org.pagefabric.hw.nic.PageFaultKind;
import org.pagefabric.hw.nic.QpType;
import org.pagefabric.hw.nic.QueuePair;
import org.pagefabric.hw.nic.WorkCompletion;
import org.pagefabric.hw.nic.WorkRequest;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.SimProcess;

/** The ODP driver on a simulated job: fault flows, RNR, UD drops, races, implicit regions, prefetch. */
class OdpDriverTest {
    private static long digest(Rank r, long offset, long length) {
        return r.node().kernel().digest(r.process(), r.segment() + offset, length);
    }

    private static void fill(Rank r, long offset, long length, long tag) {
        r.node().kernel().writeTag(r.process(), r.segment() + offset, length, tag, 0);
    }

    /** Rank 0 writes {@code length} bytes to rank 1 and returns the completion status. */
    private static Outcome[] writeOnce(OdpBed bed, long length) {
        Rank a = bed.rank(0);
        Rank b = bed.rank(1);
        fill(a, 0, length, 77);
        Outcome[] status = new Outcome[1];
        new SimProcess(bed.sim, a.node(), "rank0", ctx -> {
            a.write(ctx, b, 0, 0, length, 1);
            status[0] = a.awaitSend(ctx).status();
        }).start();
        bed.sim.run();
        return status;
    }

    @Test
    void aRequesterAndAResponderFaultAreResolvedWithNothingPinnedAndTheDataArrives() {
        OdpBed bed = new OdpBed(1, 2, 16 * PAGE, OdpPolicy.EXPLICIT, Map.of());
        long length = 3 * PAGE + 100;
        assertEquals(Outcome.SUCCESS, writeOnce(bed, length)[0]);
        assertEquals(digest(bed.rank(0), 0, length), digest(bed.rank(1), 0, length));
        assertEquals(1, bed.rank(0).node().nic().pageFaults(PageFaultKind.REQUESTER));
        assertEquals(1, bed.rank(1).node().nic().pageFaults(PageFaultKind.RESPONDER));
        assertEquals(1, bed.driver(0).resolvedFaults());
        assertEquals(1, bed.driver(1).resolvedFaults());
        assertEquals(4, bed.driver(0).pagesIn(), "the requester fault pages in the rest of the buffer at once");
        assertTrue(bed.sum(".nacks.receiver_not_ready") >= 1, "the responder fault answered RNR");
        for (int r = 0; r < 2; r++) {
            assertEquals(0, bed.rank(r).process().pinnedPages());
            assertEquals(0, bed.job.pinnedBytes());
            assertNull(OdpBed.staleEntry(bed.rank(r).endpoint().segmentRegion(), bed.rank(r).process(),
                    bed.rank(r).segment(), 16 * PAGE));
            long phases = 0;
            for (OdpDriver.Phase p : OdpDriver.Phase.values()) {
                assertTrue(bed.driver(r).phasePs(p) > 0, p + " takes time");
                phases += bed.driver(r).phasePs(p);
            }
            assertEquals(bed.sim.statistics().latency("node" + r + ".odp.fault_time", "").max(), phases, phases / 500.0,
                    "the phases add up to the fault time (histogram precision)");
        }
    }

    @Test
    void aDearerPageInLengthensOnlyThePageInPhase() {
        OdpBed cheap = new OdpBed(1, 2, 64 * PAGE, OdpPolicy.EXPLICIT, Map.of());
        OdpBed dear = new OdpBed(1, 2, 64 * PAGE, OdpPolicy.EXPLICIT, Map.of("odp.fault.page_in.per_page", "5us"));
        writeOnce(cheap, 32 * PAGE);
        writeOnce(dear, 32 * PAGE);
        assertTrue(dear.driver(0).phasePs(OdpDriver.Phase.PAGE_IN) > cheap.driver(0).phasePs(OdpDriver.Phase.PAGE_IN));
        assertEquals(cheap.driver(0).phasePs(OdpDriver.Phase.RESUME), dear.driver(0).phasePs(OdpDriver.Phase.RESUME));
    }

    @Test
    void rnrRetriesExhaustedEndInAnErrorCompletion() {
        OdpBed bed = new OdpBed(1, 2, 4 * PAGE, OdpPolicy.EXPLICIT,
                Map.of("transport.rnr_retry_limit", "2", "transport.rnr_delay", "1us"));
        Rank a = bed.rank(0);
        Completion warm = new Completion();
        // map the source first, so only the responder faults
        assertTrue(a.node().nic().advise(a.endpoint().segmentRegion(), a.segment(), PAGE,
                AdviseMrFlags.PREFETCH_WRITE | AdviseMrFlags.FLUSH, warm));
        bed.sim.run();
        assertTrue(warm.isDone());
        assertEquals(Outcome.RNR_RETRY_EXCEEDED, writeOnce(bed, 64)[0]);
        assertEquals(1, bed.rank(1).node().nic().pageFaults(PageFaultKind.RESPONDER));
    }

    @Test
    void aWriteIntoAPageTheProcessMapsWithNoAccessEndsInARemoteAccessErrorNotASuspendedQueuePair() {
        OdpBed bed = new OdpBed(1, 2, 4 * PAGE, OdpPolicy.EXPLICIT,
                Map.of("transport.rnr_retry_limit", "7", "transport.rnr_delay", "1us"));
        Rank b = bed.rank(1);
        b.node().kernel().mprotect(b.process(), b.segment(), PAGE, org.pagefabric.hw.os.Prot.NONE);
        assertEquals(Outcome.REMOTE_ACCESS_ERROR, writeOnce(bed, 64)[0]);
        assertEquals(1, bed.driver(1).unresolvable(), "the driver could not map the page");
        assertTrue(SimProcess.waiting(bed.sim).isEmpty(), "nothing left waiting");
    }

    @Test
    void generousRnrRetriesRideOutTheSameFault() {
        OdpBed bed = new OdpBed(1, 2, 4 * PAGE, OdpPolicy.EXPLICIT,
                Map.of("transport.rnr_retry_limit", "1000", "transport.rnr_delay", "1us"));
        assertEquals(Outcome.SUCCESS, writeOnce(bed, 64)[0]);
        assertTrue(bed.sum(".nacks.receiver_not_ready") > 2, "retried several times while the fault was resolved");
    }

    @Test
    void twoQueuePairsFaultingOnOnePageAreEachResumedByTheirOwnFault() {
        OdpBed bed = new OdpBed(1, 3, 4 * PAGE, OdpPolicy.EXPLICIT, Map.of());
        Rank target = bed.rank(1);
        List<Outcome> done = new ArrayList<>();
        for (int r : new int[] {0, 2}) {
            Rank from = bed.rank(r);
            fill(from, 0, 64, r);
            new SimProcess(bed.sim, from.node(), "rank" + r, ctx -> {
                from.write(ctx, target, 0, r * 64L, 64, r); // both into the first page of rank 1
                done.add(from.awaitSend(ctx).status());
            }).start();
        }
        bed.sim.run();
        assertEquals(List.of(Outcome.SUCCESS, Outcome.SUCCESS), done);
        assertEquals(2, target.node().nic().pageFaults(PageFaultKind.RESPONDER), "one fault per QP");
        assertEquals(2, bed.driver(1).resolvedFaults(), "each QP resumed by its own fault");
        QueuePair q0 = target.endpoint().qp(0);
        QueuePair q2 = target.endpoint().qp(2);
        assertTrue(q0.suspendedPs(PageFaultKind.RESPONDER) > 0 && q2.suspendedPs(PageFaultKind.RESPONDER) > 0);
        assertTrue(q0.suspendedPs(PageFaultKind.RESPONDER) != q2.suspendedPs(PageFaultKind.RESPONDER),
                "the second waited for its own resolution although the first had mapped the page");
        assertEquals(digest(bed.rank(0), 0, 64), digest(target, 0, 64));
        assertEquals(digest(bed.rank(2), 0, 64), digest(target, 128, 64));
    }

    @Test
    void udDatagramsToAnUnmappedPageAreDroppedAndCountedThenLandOnceMapped() {
        OdpBed bed = new OdpBed(1, 2, 4 * PAGE, OdpPolicy.EXPLICIT, Map.of());
        Rank a = bed.rank(0);
        Rank b = bed.rank(1);
        CompletionQueue cqa = new CompletionQueue("a.udcq", 64);
        CompletionQueue cqb = new CompletionQueue("b.udcq", 64);
        QueuePair ua = a.node().nic().createQp(a.endpoint().pd(), QpType.UD, cqa, cqa);
        QueuePair ub = b.node().nic().createQp(b.endpoint().pd(), QpType.UD, cqb, cqb);
        MemoryRegion src = a.endpoint().segmentRegion();
        MemoryRegion dst = b.endpoint().segmentRegion();
        fill(a, 0, 256, 5);
        List<WorkCompletion> received = new ArrayList<>();
        new SimProcess(bed.sim, a.node(), "ud", ctx -> {
            for (int i = 0; i < 2; i++) {
                ub.postRecv(WorkRequest.recv(100 + i, b.segment(), 256, dst.lkey()));
                ua.postSend(WorkRequest.send(i, a.segment(), 256, src.lkey()), new AddressHandle(b.node().id(), ub.qpn()));
                ctx.sleep(Time.MS); // long enough for any fault to be resolved (about 135 us on odp-connectx)
                for (WorkCompletion wc; (wc = cqb.poll()) != null; ) {
                    received.add(wc);
                }
            }
        }).start();
        bed.sim.run();
        assertEquals(1, bed.sum(".ud_dropped_not_present"), "the first datagram met an unmapped page");
        assertEquals(1, b.node().nic().pageFaults(PageFaultKind.RESPONDER));
        assertEquals(1, bed.driver(1).resolvedFaults());
        assertEquals(1, received.size(), "the second landed: " + received);
        assertEquals(CompletionStatus.SUCCESS, received.get(0).status());
        assertEquals(digest(a, 0, 256), digest(b, 0, 256));
    }

    @Test
    void aPageInRacingAnInvalidationResumesWithoutMappingAndFaultsAgain() {
        OdpBed bed = new OdpBed(1, 2, 64 * PAGE, OdpPolicy.EXPLICIT, Map.of());
        Rank a = bed.rank(0);
        Rank b = bed.rank(1);
        long length = 64 * PAGE;
        fill(a, 0, length, 9);
        Outcome[] status = new Outcome[1];
        new SimProcess(bed.sim, a.node(), "rank0", ctx -> {
            a.write(ctx, b, 0, 0, length, 1);
            status[0] = a.awaitSend(ctx).status();
        }).start();
        // The 64-page page-in runs for tens of microseconds; give half the buffer back in the middle of it.
        new SimProcess(bed.sim, a.node(), "reclaimer", ctx -> {
            ctx.sleep(40 * Time.US);
            a.node().kernel().madvise(a.process(), a.segment(), 32 * PAGE, org.pagefabric.hw.os.Advice.DONTNEED);
            fill(a, 0, 32 * PAGE, 9); // the application rewrites what it gave back, into new frames
        }).start();
        bed.sim.run();
        assertEquals(Outcome.SUCCESS, status[0]);
        assertTrue(bed.driver(0).races() >= 1, "the page-in lost its race");
        assertTrue(bed.rank(0).node().nic().pageFaults(PageFaultKind.REQUESTER) >= 2, "and the QP faulted again");
        assertEquals(digest(a, 0, length), digest(b, 0, length), "the data came from the current frames");
        assertEquals(0, a.node().memory().strayWrites());
        assertNull(OdpBed.staleEntry(a.endpoint().segmentRegion(), a.process(), a.segment(), length));
    }

    @Test
    void implicitRegionsGrowTheirTranslationsWithWhatIsMappedNotWithTheAddressSpace() {
        OdpBed bed = new OdpBed(1, 2, 8 * PAGE, OdpPolicy.IMPLICIT, Map.of());
        assertEquals(Outcome.SUCCESS, writeOnce(bed, 2 * PAGE)[0]);
        assertEquals(digest(bed.rank(0), 0, 2 * PAGE), digest(bed.rank(1), 0, 2 * PAGE));
        for (int r = 0; r < 2; r++) {
            MemoryRegion mr = bed.rank(r).endpoint().segmentRegion();
            assertTrue(mr.implicit());
            assertEquals(2, mr.table().presentEntries());
            assertTrue(mr.table().metadataBytes() <= 2 * 4096, "metadata " + mr.table().metadataBytes() + " B");
            assertEquals(1, bed.driver(r).implicitChildren());
        }
    }

    @Test
    void aSynchronousPrefetchMapsTheBufferSoTheTransferDoesNotFault() {
        OdpBed bed = new OdpBed(1, 2, 8 * PAGE, OdpPolicy.PREFETCH, Map.of());
        assertEquals(Outcome.SUCCESS, writeOnce(bed, 4 * PAGE)[0]);
        assertEquals(digest(bed.rank(0), 0, 4 * PAGE), digest(bed.rank(1), 0, 4 * PAGE));
        for (int r = 0; r < 2; r++) {
            assertEquals(0, bed.rank(r).node().nic().pageFaults(PageFaultKind.REQUESTER));
            assertEquals(0, bed.rank(r).node().nic().pageFaults(PageFaultKind.RESPONDER));
            assertEquals(4, bed.rank(r).endpoint().segmentRegion().table().presentEntries());
        }
    }

    @Test
    void anAsynchronousPrefetchReturnsAtOnceAndMapsLater() {
        OdpBed bed = new OdpBed(1, 2, 8 * PAGE, OdpPolicy.EXPLICIT, Map.of());
        Rank a = bed.rank(0);
        Completion done = new Completion();
        assertTrue(a.node().nic().advise(a.endpoint().segmentRegion(), a.segment(), 4 * PAGE, AdviseMrFlags.PREFETCH,
                done));
        assertEquals(0, a.endpoint().segmentRegion().table().presentEntries(), "nothing mapped at the call");
        bed.sim.run();
        assertTrue(done.isDone());
        assertEquals(4, a.endpoint().segmentRegion().table().presentEntries());
    }

    @Test
    void nonOdpTrafficIsUnaffectedByAFaultingNeighbour() {
        // pin-all probe on the same NICs as a faulting ODP pair: identical latency to a run without it
        var quiet = org.pagefabric.workload.PointRun.run(OdpBed.PROFILE, "pin-all",
                org.pagefabric.workload.WorkloadRegistry.standard().byName("interop-latency"),
                Map.of("size_B", 8, "iterations", 20, "background_faults", false), 3);
        var busy = org.pagefabric.workload.PointRun.run(OdpBed.PROFILE, "pin-all",
                org.pagefabric.workload.WorkloadRegistry.standard().byName("interop-latency"),
                Map.of("size_B", 8, "iterations", 20, "background_faults", true), 3);
        assertEquals(true, busy.get("verified"));
        assertTrue((Long) busy.get("background_ops") > 0);
        assertTrue((Long) busy.get("faults") > 0, "the neighbour faulted while the probe ran");
        assertEquals((Double) quiet.get("latency_p50_us"), (Double) busy.get("latency_p50_us"), 0.5);
    }

    @Test
    void withAccessBitsTheNicMarksWhatItUsesAndReclaimHearsItOnce() {
        for (boolean on : new boolean[] {false, true}) {
            OdpBed bed = new OdpBed(1, 2, 8 * PAGE, OdpPolicy.EXPLICIT, Map.of("odp.access_bits", Boolean.toString(on),
                    "memory.size", "32MiB", "os.swap.size", "32MiB"));
            assertEquals(Outcome.SUCCESS, writeOnce(bed, 2 * PAGE)[0]);
            Rank b = bed.rank(1);
            MemoryRegion mr = b.endpoint().segmentRegion();
            long entry = mr.table().get(0);
            assertTrue((entry & org.pagefabric.hw.os.Pte.PRESENT) != 0);
            assertEquals(on, (entry & org.pagefabric.hw.os.Pte.ACCESSED) != 0, "access_bits " + on);
            assertEquals(on, (entry & org.pagefabric.hw.os.Pte.DIRTY) != 0, "a write marks the entry dirty");
            b.node().kernel().reclaim(1);
            long reports = bed.sum("node1.odp.young_reports");
            assertEquals(on ? 2 : 0, reports, "reclaim asks page by page: one report for each page the NIC used");
            assertEquals(0, mr.table().get(0) & org.pagefabric.hw.os.Pte.ACCESSED);
            long after = mr.table().get(1);
            assertTrue((after & org.pagefabric.hw.os.Pte.PRESENT) == 0 || on == ((after & org.pagefabric.hw.os.Pte.DIRTY) != 0),
                    "the dirty bit of a page still mapped stays");
        }
    }
}
