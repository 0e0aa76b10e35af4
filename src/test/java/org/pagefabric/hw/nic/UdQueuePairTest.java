package org.pagefabric.hw.nic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pagefabric.hw.nic.NicBed.BASE;
import static org.pagefabric.hw.nic.NicBed.PAGE;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.hw.net.LinkFaults;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.stat.Counter;

/** Unreliable datagrams: one packet per message, a receive per datagram, drops counted. */
class UdQueuePairTest {
    final NicBed bed = new NicBed();
    final NicBed.Host a = bed.a;
    final NicBed.Host b = bed.b;
    final QueuePair ua = a.nic.createQp(a.pd, QpType.UD, a.cq, a.cq);
    final QueuePair ub = b.nic.createUdQp(b.pd, b.cq, b.cq, 2048);

    long counter(String name) {
        return ((Counter) bed.sim.statistics().get(name)).value();
    }

    @Test
    void aDatagramLandsInTheReceiveWithItsSourceAddress() {
        MemoryRegion src = a.pinned(BASE, 2, 0);
        MemoryRegion dst = b.pinned(BASE, 2, AccessFlags.LOCAL_WRITE);
        byte[] data = NicBed.pattern(2000, 1);
        a.store(BASE + 3000, data); // crosses a page boundary
        ub.postRecv(WorkRequest.recv(9, BASE + 10, 2048, dst.lkey()));
        ua.postSend(WorkRequest.send(1, BASE + 3000, data.length, src.lkey()), new AddressHandle(1, ub.qpn()));
        bed.sim.run();
        List<WorkCompletion> sent = a.drain();
        assertEquals(1, sent.size());
        assertEquals(CompletionStatus.SUCCESS, sent.get(0).status());
        List<WorkCompletion> got = b.drain();
        assertEquals(1, got.size());
        assertEquals(9, got.get(0).wrId());
        assertEquals(data.length, got.get(0).bytes());
        assertEquals(new AddressHandle(0, ua.qpn()), AddressHandle.sourceOf(got.get(0)));
        assertArrayEquals(data, b.load(BASE + 10, data.length));
        assertEquals(0, ub.postedReceives());
        assertEquals(1, counter("node1.nic.ud_received"));
    }

    @Test
    void datagramsWithoutAReceiveAreDroppedAndCountedAndConsumeNothing() {
        MemoryRegion src = a.pinned(BASE, 1, 0);
        MemoryRegion dst = b.pinned(BASE, 1, AccessFlags.LOCAL_WRITE);
        a.store(BASE, NicBed.pattern(100, 2));
        AddressHandle to = new AddressHandle(1, ub.qpn());
        ua.postSend(WorkRequest.send(1, BASE, 100, src.lkey()), to);
        ua.postSend(WorkRequest.send(2, BASE, 100, src.lkey()), to);
        bed.sim.run();
        assertEquals(2, counter("node1.nic.ud_dropped_no_receive"));
        assertEquals(2, counter("node1.transport.datagramsDropped"));
        assertTrue(b.drain().isEmpty());
        assertEquals(List.of(CompletionStatus.SUCCESS, CompletionStatus.SUCCESS),
                a.drain().stream().map(WorkCompletion::status).toList(), "a UD sender never learns of a drop");

        ub.postRecv(WorkRequest.recv(5, BASE, 128, dst.lkey()));
        ua.postSend(WorkRequest.send(3, BASE, 100, src.lkey()), to);
        bed.sim.run();
        assertEquals(1, b.drain().size());
        assertArrayEquals(NicBed.pattern(100, 2), b.load(BASE, 100));
    }

    @Test
    void aNonPresentTargetDropsTheDatagramRaisesAResponderFaultAndDropsUntilResumed() {
        MemoryRegion src = a.pinned(BASE, 1, 0);
        MemoryRegion dst = b.onDemand(BASE, 4, AccessFlags.LOCAL_WRITE);
        NicBed.DelayedDriver driver = new NicBed.DelayedDriver(bed, b, f -> 30 * Time.US);
        byte[] data = NicBed.pattern(512, 3);
        a.store(BASE, data);
        ub.postRecv(WorkRequest.recv(7, BASE + PAGE, 512, dst.lkey()));
        AddressHandle to = new AddressHandle(1, ub.qpn());
        ua.postSend(WorkRequest.send(1, BASE, 512, src.lkey()), to);
        // While the fault is resolved, datagrams are dropped even though the page gets mapped.
        bed.at(10 * Time.US, () -> ua.postSend(WorkRequest.send(2, BASE, 512, src.lkey()), to));
        bed.at(50 * Time.US, () -> ua.postSend(WorkRequest.send(3, BASE, 512, src.lkey()), to));
        bed.sim.run();
        assertEquals(1, driver.faults.size());
        PageFault f = driver.faults.get(0);
        assertEquals(PageFaultKind.RESPONDER, f.kind());
        assertEquals(BASE + PAGE, f.address());
        assertTrue(f.write());
        assertEquals(2, counter("node1.nic.ud_dropped_not_present"));
        assertEquals(1, b.nic.pageFaults(PageFaultKind.RESPONDER));
        List<WorkCompletion> got = b.drain();
        assertEquals(1, got.size(), "the receive survived the drops and took the third datagram");
        assertEquals(7, got.get(0).wrId());
        assertArrayEquals(data, b.load(BASE + PAGE, 512));
        assertTrue(ub.suspendedPs(PageFaultKind.RESPONDER) >= 30 * Time.US);
    }

    @Test
    void corruptDatagramsAreDroppedOnArrival() {
        bed.net.setFaults(new LinkFaults(0, 1.0));
        MemoryRegion src = a.pinned(BASE, 1, 0);
        MemoryRegion dst = b.pinned(BASE, 1, AccessFlags.LOCAL_WRITE);
        ub.postRecv(WorkRequest.recv(1, BASE, 256, dst.lkey()));
        ua.postSend(WorkRequest.send(1, BASE, 200, src.lkey()), new AddressHandle(1, ub.qpn()));
        bed.sim.run();
        assertEquals(1, counter("node1.transport.datagramsCorrupt"));
        assertTrue(b.drain().isEmpty());
        assertEquals(1, ub.postedReceives());
    }

    @Test
    void aReceiveTooSmallCompletesWithAnError() {
        MemoryRegion src = a.pinned(BASE, 1, 0);
        MemoryRegion dst = b.pinned(BASE, 1, AccessFlags.LOCAL_WRITE);
        ub.postRecv(WorkRequest.recv(1, BASE, 64, dst.lkey()));
        ua.postSend(WorkRequest.send(1, BASE, 200, src.lkey()), new AddressHandle(1, ub.qpn()));
        bed.sim.run();
        List<WorkCompletion> got = b.drain();
        assertEquals(CompletionStatus.LOCAL_PROTECTION_ERROR, got.get(0).status());
        assertEquals(1, b.nic.refused(AccessCheck.OUT_OF_BOUNDS));
        assertArrayEquals(new byte[64], b.load(BASE, 64));
    }

    @Test
    void sendsAreOrderedAndPacedOnePacketAtATime() {
        MemoryRegion src = a.pinned(BASE, 1, 0);
        MemoryRegion dst = b.pinned(BASE, 8, AccessFlags.LOCAL_WRITE);
        for (int i = 0; i < 8; i++) {
            ub.postRecv(WorkRequest.recv(i, BASE + (long) i * PAGE, 2048, dst.lkey()));
        }
        a.store(BASE, NicBed.pattern(PAGE, 4));
        for (int i = 0; i < 8; i++) {
            ua.postSend(WorkRequest.send(i, BASE + i * 100, 2048, src.lkey()), new AddressHandle(1, ub.qpn()));
        }
        bed.sim.run();
        List<WorkCompletion> sent = a.drain();
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L), sent.stream().map(WorkCompletion::wrId).toList());
        for (int i = 1; i < 8; i++) {
            assertTrue(sent.get(i).timePs() > sent.get(i - 1).timePs());
        }
        List<WorkCompletion> got = b.drain();
        for (int i = 0; i < 8; i++) {
            assertArrayEquals(java.util.Arrays.copyOfRange(NicBed.pattern(PAGE, 4), i * 100, i * 100 + 2048),
                    b.load(BASE + (long) i * PAGE, 2048));
            assertEquals(i, got.get(i).wrId());
        }
    }

    @Test
    void udRefusesWhatItCannotCarry() {
        MemoryRegion src = a.pinned(BASE, 2, 0);
        assertThrows(IllegalArgumentException.class,
                () -> ub.postSend(WorkRequest.send(1, BASE, 4096, src.lkey()), new AddressHandle(0, ua.qpn())));
        assertThrows(IllegalArgumentException.class,
                () -> ua.postSend(WorkRequest.write(1, BASE, 8, src.lkey(), BASE, 0), new AddressHandle(1, 0)));
        assertThrows(IllegalArgumentException.class, () -> ua.postSend(WorkRequest.send(1, BASE, 8, src.lkey())));
        assertThrows(IllegalArgumentException.class, () -> Nic.connect(ua, ub, NicBed.RC));
        assertThrows(IllegalArgumentException.class, () -> b.nic.createUdQp(b.pd, b.cq, b.cq, 8192));
    }
}
