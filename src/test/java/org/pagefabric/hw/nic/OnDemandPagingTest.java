package org.pagefabric.hw.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pagefabric.hw.nic.NicBed.BASE;
import static org.pagefabric.hw.nic.NicBed.PAGE;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.Statistic;

/** The hardware side of on-demand paging (001): faults, suspension, resume, prefetch, invalidation. */
class OnDemandPagingTest {
    static final long REMOTE = BASE + (1L << 30);

    final NicBed bed = new NicBed();
    final NicBed.Host a = bed.a;
    final NicBed.Host b = bed.b;
    final QueuePair[] qp = bed.connect();

    long stat(String name) {
        return ((Counter) bed.sim.statistics().get(name)).value();
    }

    @Test
    void aRequesterFaultSuspendsTheSendQueueUntilTheDriverResumesIt() {
        MemoryRegion src = a.onDemand(BASE, 8, 0);
        MemoryRegion dst = b.pinned(REMOTE, 8, AccessFlags.REMOTE_WRITE);
        long delay = 50 * Time.US;
        NicBed.DelayedDriver driver = new NicBed.DelayedDriver(bed, a, f -> delay);
        byte[] data = NicBed.pattern(3 * PAGE, 1);
        a.store(BASE + 200, data);
        qp[0].postSend(WorkRequest.write(1, BASE + 200, data.length, src.lkey(), REMOTE, dst.rkey()));
        // Posted behind the faulted one, to pages already resident in the NIC: it must wait.
        bed.at(1 * Time.US, () -> {
            assertTrue(qp[0].sendSuspended());
            qp[0].postSend(WorkRequest.write(2, BASE + 200, 8, src.lkey(), REMOTE + 4 * PAGE, dst.rkey()));
        });
        bed.sim.run();

        assertEquals(1, driver.faults.size());
        PageFault f = driver.faults.get(0);
        assertEquals(PageFaultKind.REQUESTER, f.kind());
        assertEquals(qp[0], f.qp());
        assertEquals(src, f.region());
        assertEquals(BASE + 200, f.address());
        assertEquals(data.length, f.length(), "the fault covers the rest of the buffer");
        assertFalse(f.write());
        assertEquals(1, a.nic.pageFaults(PageFaultKind.REQUESTER));
        assertTrue(qp[0].suspendedPs(PageFaultKind.REQUESTER) >= delay);
        assertEquals(qp[0].suspendedPs(PageFaultKind.REQUESTER), a.nic.suspendedPs(PageFaultKind.REQUESTER));
        List<WorkCompletion> wcs = a.drain();
        assertEquals(List.of(1L, 2L), wcs.stream().map(WorkCompletion::wrId).toList());
        assertTrue(wcs.stream().allMatch(wc -> wc.status() == CompletionStatus.SUCCESS));
        assertTrue(wcs.get(0).timePs() >= delay);
        assertArrayEquals(data, b.load(REMOTE, data.length));
        assertEquals(0, stat("node0.send0.sourceFaults"), "no packet was attempted from an unmapped page");
        assertFalse(qp[0].sendSuspended());
    }

    @Test
    void aResponderFaultAnswersRnrUntilResumedAndThenTheWriteLands() {
        MemoryRegion src = a.pinned(BASE, 4, 0);
        MemoryRegion dst = b.onDemand(REMOTE, 4, AccessFlags.REMOTE_WRITE);
        long delay = 30 * Time.US;
        NicBed.DelayedDriver driver = new NicBed.DelayedDriver(bed, b, f -> delay);
        byte[] data = NicBed.pattern(2 * PAGE + 10, 2);
        a.store(BASE, data);
        qp[0].postSend(WorkRequest.write(1, BASE, data.length, src.lkey(), REMOTE + 50, dst.rkey()));
        bed.sim.run();

        assertEquals(1, driver.faults.size());
        PageFault f = driver.faults.get(0);
        assertEquals(PageFaultKind.RESPONDER, f.kind());
        assertEquals(qp[1], f.qp());
        assertEquals(REMOTE + 50, f.address());
        assertEquals(data.length, f.length(), "the fault covers the rest of the message");
        assertTrue(f.write());
        assertTrue(stat("node0.send0.nacks.receiver_not_ready") >= 1);
        assertTrue(qp[1].suspendedPs(PageFaultKind.RESPONDER) >= delay);
        WorkCompletion wc = a.drain().get(0);
        assertEquals(CompletionStatus.SUCCESS, wc.status());
        assertTrue(wc.timePs() >= delay);
        assertArrayEquals(data, b.load(REMOTE + 50, data.length));
    }

    @Test
    void readsAndAtomicsFaultAtTheResponderToo() {
        MemoryRegion local = a.pinned(BASE, 4, AccessFlags.LOCAL_WRITE);
        MemoryRegion remote = b.onDemand(REMOTE, 4, AccessFlags.REMOTE_READ | AccessFlags.REMOTE_ATOMIC);
        NicBed.DelayedDriver driver = new NicBed.DelayedDriver(bed, b, f -> 20 * Time.US);
        byte[] data = NicBed.pattern(2 * PAGE, 3);
        b.store(REMOTE, data);
        b.store(REMOTE + 3 * PAGE, ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(40).array());
        qp[0].postSend(WorkRequest.read(1, BASE, data.length, local.lkey(), REMOTE, remote.rkey()));
        qp[0].postSend(WorkRequest.fetchAndAdd(2, BASE + 3 * PAGE, local.lkey(), REMOTE + 3 * PAGE, remote.rkey(), 2));
        bed.sim.run();
        List<WorkCompletion> wcs = a.drain();
        assertEquals(List.of(CompletionStatus.SUCCESS, CompletionStatus.SUCCESS),
                wcs.stream().map(WorkCompletion::status).toList());
        assertArrayEquals(data, a.load(BASE, data.length));
        assertEquals(40, wcs.get(1).value());
        assertEquals(42, ByteBuffer.wrap(b.load(REMOTE + 3 * PAGE, 8)).order(ByteOrder.LITTLE_ENDIAN).getLong());
        assertEquals(2, driver.faults.size());
        assertFalse(driver.faults.get(0).write(), "a read's responder fault is a read");
        assertTrue(driver.faults.get(1).write(), "an atomic's is a write");
    }

    @Test
    void twoQueuePairsFaultingOnOnePageEachWaitForTheirOwnResume() {
        QueuePair[] second = bed.connect();
        MemoryRegion src = a.pinned(BASE, 2, 0);
        MemoryRegion dst = b.onDemand(REMOTE, 2, AccessFlags.REMOTE_WRITE);
        long early = 10 * Time.US;
        long late = 80 * Time.US;
        NicBed.DelayedDriver driver = new NicBed.DelayedDriver(bed, b, f -> f.qp() == qp[1] ? early : late);
        a.store(BASE, NicBed.pattern(2 * PAGE, 4));
        qp[0].postSend(WorkRequest.write(1, BASE, 64, src.lkey(), REMOTE, dst.rkey()));
        second[0].postSend(WorkRequest.write(2, BASE + PAGE, 64, src.lkey(), REMOTE + 64, dst.rkey()));
        bed.at(2 * early, () -> { // faults arrive within a few microseconds; the first is resolved by now
            assertTrue(NicBed.Host.mapped(dst, REMOTE), "the first resolution mapped the shared page");
            assertFalse(qp[1].responderSuspended());
            assertTrue(second[1].responderSuspended(), "the other QP waits for its own fault");
        });
        bed.sim.run();

        assertEquals(2, driver.faults.size());
        assertEquals(2, b.nic.pageFaults(PageFaultKind.RESPONDER));
        List<WorkCompletion> wcs = a.drain();
        WorkCompletion first = wcs.stream().filter(wc -> wc.wrId() == 1).findFirst().orElseThrow();
        WorkCompletion other = wcs.stream().filter(wc -> wc.wrId() == 2).findFirst().orElseThrow();
        assertEquals(CompletionStatus.SUCCESS, first.status());
        assertEquals(CompletionStatus.SUCCESS, other.status());
        assertTrue(first.timePs() < late, "the first QP went on after its own resume");
        assertTrue(other.timePs() >= late, "the second waited although the page was mapped at " + early);
        assertTrue(second[1].suspendedPs(PageFaultKind.RESPONDER) >= late);
        assertTrue(qp[1].suspendedPs(PageFaultKind.RESPONDER) < late);
        byte[] data = NicBed.pattern(2 * PAGE, 4);
        assertArrayEquals(java.util.Arrays.copyOfRange(data, 0, 64), b.load(REMOTE, 64));
        assertArrayEquals(java.util.Arrays.copyOfRange(data, PAGE, PAGE + 64), b.load(REMOTE + 64, 64));
    }

    @Test
    void aQueuePairHasAtMostOneRequesterAndOneResponderFaultOutstanding() {
        MemoryRegion aSrc = a.onDemand(BASE, 8, 0);
        MemoryRegion aDst = a.onDemand(REMOTE, 8, AccessFlags.REMOTE_WRITE);
        MemoryRegion bSrc = b.pinned(BASE, 8, 0);
        MemoryRegion bDst = b.pinned(REMOTE, 8, AccessFlags.REMOTE_WRITE);
        NicBed.DelayedDriver driver = new NicBed.DelayedDriver(bed, a, f -> 40 * Time.US);
        byte[] out = NicBed.pattern(8 * PAGE, 5);
        byte[] in = NicBed.pattern(8 * PAGE, 6);
        a.store(BASE, out);
        b.store(BASE, in);
        for (int i = 0; i < 3; i++) { // each from its own unmapped page: faults one after another
            qp[0].postSend(WorkRequest.write(i, BASE + (long) i * 2 * PAGE, PAGE, aSrc.lkey(), REMOTE + (long) i * PAGE,
                    bDst.rkey()));
        }
        for (int i = 0; i < 2; i++) {
            qp[1].postSend(WorkRequest.write(10 + i, BASE + (long) i * 3 * PAGE, PAGE, bSrc.lkey(),
                    REMOTE + (long) i * 3 * PAGE, aDst.rkey()));
        }
        bed.at(20 * Time.US, () -> {
            assertTrue(qp[0].sendSuspended());
            assertTrue(qp[0].responderSuspended());
            assertEquals(2, driver.faults.size(), "one of each kind while both wait");
        });
        bed.sim.run();

        assertEquals(2, driver.maxOutstandingPerQp);
        assertEquals(3, a.nic.pageFaults(PageFaultKind.REQUESTER));
        assertEquals(2, a.nic.pageFaults(PageFaultKind.RESPONDER));
        for (PageFaultKind kind : PageFaultKind.values()) {
            long previousEnd = -1;
            for (PageFault f : driver.faults) {
                if (f.kind() != kind) {
                    continue;
                }
                assertTrue(f.raisedPs() >= previousEnd, kind + " faults of one QP never overlap");
                previousEnd = driver.resolved.stream().filter(r -> r[0] == f.id()).findFirst().orElseThrow()[1];
            }
        }
        assertTrue(a.drain().stream().allMatch(wc -> wc.status() == CompletionStatus.SUCCESS));
        assertTrue(b.drain().stream().allMatch(wc -> wc.status() == CompletionStatus.SUCCESS));
        for (int i = 0; i < 3; i++) {
            assertArrayEquals(java.util.Arrays.copyOfRange(out, i * 2 * PAGE, i * 2 * PAGE + PAGE),
                    b.load(REMOTE + (long) i * PAGE, PAGE));
        }
        for (int i = 0; i < 2; i++) {
            assertArrayEquals(java.util.Arrays.copyOfRange(in, i * 3 * PAGE, i * 3 * PAGE + PAGE),
                    a.load(REMOTE + (long) i * 3 * PAGE, PAGE));
        }
    }

    @Test
    void aPrefetchMapsTheRangeSoTheWriteTakesNoFault() {
        MemoryRegion src = a.onDemand(BASE, 4, 0);
        MemoryRegion dst = b.pinned(REMOTE, 4, AccessFlags.REMOTE_WRITE);
        NicBed.DelayedDriver driver = new NicBed.DelayedDriver(bed, a, f -> 15 * Time.US);
        byte[] data = NicBed.pattern(4 * PAGE, 7);
        a.store(BASE, data);
        Completion done = new Completion("prefetch");
        assertTrue(a.nic.advise(src, BASE, 4L * PAGE, AdviseMrFlags.PREFETCH | AdviseMrFlags.FLUSH, done));
        bed.sim.run();
        assertTrue(done.isDone());
        assertEquals(4, src.table().presentEntries());
        qp[0].postSend(WorkRequest.write(1, BASE, data.length, src.lkey(), REMOTE, dst.rkey()));
        bed.sim.run();
        assertEquals(CompletionStatus.SUCCESS, a.drain().get(0).status());
        assertTrue(driver.faults.isEmpty());
        assertEquals(0, a.nic.pageFaults(PageFaultKind.REQUESTER));
        assertArrayEquals(data, b.load(REMOTE, data.length));
        assertEquals(1, stat("node0.nic.prefetches"));
    }

    @Test
    void adviceIsRefusedWithoutAHandlerOrForPinnedRegionsAndCheckedForShape() {
        MemoryRegion odp = a.onDemand(BASE, 4, 0);
        MemoryRegion pinned = a.pinned(REMOTE, 1, 0);
        assertFalse(a.nic.advise(odp, BASE, PAGE, AdviseMrFlags.PREFETCH), "no handler: a no-op");
        new NicBed.DelayedDriver(bed, a, f -> 0);
        assertFalse(a.nic.advise(pinned, REMOTE, PAGE, AdviseMrFlags.PREFETCH));
        assertFalse(a.nic.advise(odp, BASE, 5L * PAGE, AdviseMrFlags.PREFETCH_WRITE), "beyond the region");
        assertThrows(IllegalArgumentException.class, () -> a.nic.advise(odp, BASE, PAGE, AdviseMrFlags.FLUSH));
        assertThrows(IllegalArgumentException.class,
                () -> a.nic.advise(odp, BASE, PAGE, AdviseMrFlags.PREFETCH | AdviseMrFlags.PREFETCH_WRITE));
        assertTrue(a.nic.advise(odp, BASE, PAGE, AdviseMrFlags.PREFETCH_WRITE));
    }

    @Test
    void anInvalidationBetweenTwoWritesMakesTheSecondFaultAgain() {
        MemoryRegion src = a.onDemand(BASE, 2, 0);
        MemoryRegion dst = b.pinned(REMOTE, 2, AccessFlags.REMOTE_WRITE);
        NicBed.DelayedDriver driver = new NicBed.DelayedDriver(bed, a, f -> 25 * Time.US);
        a.store(BASE, NicBed.pattern(PAGE, 8));
        qp[0].postSend(WorkRequest.write(1, BASE, PAGE, src.lkey(), REMOTE, dst.rkey()));
        bed.sim.run();
        assertEquals(1, a.nic.pageFaults(PageFaultKind.REQUESTER));
        assertArrayEquals(NicBed.pattern(PAGE, 8), b.load(REMOTE, PAGE));

        assertEquals(1, a.nic.zap(src, BASE, PAGE));
        assertNull(qp[0].fault(PageFaultKind.REQUESTER));
        a.store(BASE, NicBed.pattern(PAGE, 9));
        qp[0].postSend(WorkRequest.write(2, BASE, PAGE, src.lkey(), REMOTE + PAGE, dst.rkey()));
        bed.sim.run();
        assertEquals(2, a.nic.pageFaults(PageFaultKind.REQUESTER));
        assertEquals(2, driver.faults.size());
        assertEquals(List.of(CompletionStatus.SUCCESS, CompletionStatus.SUCCESS),
                a.drain().stream().map(WorkCompletion::status).toList());
        assertArrayEquals(NicBed.pattern(PAGE, 9), b.load(REMOTE + PAGE, PAGE));
    }

    @Test
    void aZapUnderAStartedMessageFaultsOnTheNextPacketAndTheTransportResendsIt() {
        MemoryRegion odp = a.nic.registerOnDemand(a.pd, BASE, 64L * PAGE, 0, false);
        a.mapRange(odp, BASE, 64L * PAGE);
        MemoryRegion dst = b.pinned(REMOTE, 64, AccessFlags.REMOTE_WRITE);
        NicBed.DelayedDriver driver = new NicBed.DelayedDriver(bed, a, f -> 5 * Time.US);
        byte[] data = NicBed.pattern(64 * PAGE, 10);
        a.store(BASE, data);
        qp[0].postSend(WorkRequest.write(1, BASE, data.length, odp.lkey(), REMOTE, dst.rkey()));
        bed.at(3 * Time.US, () -> a.nic.zap(odp, BASE + 60L * PAGE, 4L * PAGE)); // the tail, not yet sent
        bed.sim.run();
        assertEquals(1, driver.faults.size());
        assertEquals(BASE + 60L * PAGE, driver.faults.get(0).address());
        assertTrue(stat("node0.send0.sourceFaults") >= 1);
        assertEquals(CompletionStatus.SUCCESS, a.drain().get(0).status());
        assertArrayEquals(data, b.load(REMOTE, data.length));
    }

    @Test
    void aResumeWithoutMappingRetriesAndFaultsAgain() {
        MemoryRegion src = a.onDemand(BASE, 1, 0);
        MemoryRegion dst = b.pinned(REMOTE, 1, AccessFlags.REMOTE_WRITE);
        int[] calls = {0};
        a.nic.setPageFaultHandler((nic, f) -> bed.at(5 * Time.US, () -> {
            if (++calls[0] == 2) { // the first resume raced an invalidation: nothing was mapped
                a.mapRange(f.region(), f.address(), f.length());
            }
            assertTrue(nic.resume(f));
            assertFalse(nic.resume(f), "a fault is resumed once");
        }));
        qp[0].postSend(WorkRequest.write(1, BASE, 64, src.lkey(), REMOTE, dst.rkey()));
        bed.sim.run();
        assertEquals(2, calls[0]);
        assertEquals(2, a.nic.pageFaults(PageFaultKind.REQUESTER));
        assertEquals(CompletionStatus.SUCCESS, a.drain().get(0).status());
    }

    @Test
    void anUnmappedPageOfAPinnedRegionIsRefusedAndCountedNeverFaulted() {
        MemoryRegion src = a.pinned(BASE, 2, 0);
        MemoryRegion dst = b.pinned(REMOTE, 2, AccessFlags.REMOTE_WRITE);
        NicBed.DelayedDriver driverA = new NicBed.DelayedDriver(bed, a, f -> 0);
        NicBed.DelayedDriver driverB = new NicBed.DelayedDriver(bed, b, f -> 0);
        a.nic.zap(src, BASE + PAGE, PAGE);
        b.nic.zap(dst, REMOTE, PAGE);
        qp[0].postSend(WorkRequest.write(1, BASE, 2 * PAGE, src.lkey(), REMOTE, dst.rkey()));
        qp[0].postSend(WorkRequest.write(2, BASE, 8, src.lkey(), REMOTE, dst.rkey()));
        bed.sim.run();
        assertEquals(List.of(CompletionStatus.LOCAL_PROTECTION_ERROR, CompletionStatus.FLUSHED),
                a.drain().stream().map(WorkCompletion::status).toList());
        assertEquals(1, a.nic.unmappedPinnedAccesses());
        assertTrue(driverA.faults.isEmpty());

        QueuePair[] fresh = bed.connect();
        fresh[0].postSend(WorkRequest.write(3, BASE, 8, src.lkey(), REMOTE, dst.rkey()));
        bed.sim.run();
        assertEquals(CompletionStatus.REMOTE_ACCESS_ERROR, a.drain().get(2).status());
        assertEquals(1, b.nic.unmappedPinnedAccesses());
        assertTrue(driverB.faults.isEmpty());
    }

    @Test
    void sameSeedSameRun() {
        assertEquals(scenario(5), scenario(5));
    }

    /** A mixed ODP run: statistics and completion times, as text. */
    private static String scenario(long seed) {
        NicBed bed = new NicBed(seed, new org.pagefabric.hw.nic.TranslationCacheConfig(16, 4,
                org.pagefabric.hw.iommu.ReplacementPolicy.RANDOM));
        QueuePair[] qp = bed.connect();
        MemoryRegion src = bed.a.onDemand(BASE, 64, 0);
        MemoryRegion dst = bed.b.onDemand(REMOTE, 64, AccessFlags.REMOTE_WRITE);
        new NicBed.DelayedDriver(bed, bed.a, f -> 7 * Time.US + f.length());
        new NicBed.DelayedDriver(bed, bed.b, f -> 11 * Time.US);
        bed.a.store(BASE, NicBed.pattern(64 * PAGE, seed));
        for (int i = 0; i < 16; i++) {
            int at = (i * 37) % 60;
            qp[0].postSend(WorkRequest.write(i, BASE + (long) at * PAGE, 3 * PAGE + i, src.lkey(),
                    REMOTE + (long) ((i * 11) % 60) * PAGE, dst.rkey()));
            if (i % 5 == 4) {
                long z = i;
                bed.at(i * 3 * Time.US, () -> bed.b.nic.zap(dst, REMOTE + z * PAGE, 8L * PAGE));
            }
        }
        bed.sim.run();
        assertEquals(16, bed.a.drain().size());
        assertTrue(bed.a.completions.stream().allMatch(wc -> wc.status() == CompletionStatus.SUCCESS));
        assertTrue(bed.a.nic.pageFaults(PageFaultKind.REQUESTER) > 0 && bed.b.nic.pageFaults(PageFaultKind.RESPONDER) > 0);
        StringBuilder s = new StringBuilder();
        for (WorkCompletion wc : bed.a.drain()) {
            s.append(wc).append('\n');
        }
        for (Statistic.Value v : bed.sim.statistics().snapshot()) {
            s.append(v).append('\n');
        }
        return s.toString();
    }
}
