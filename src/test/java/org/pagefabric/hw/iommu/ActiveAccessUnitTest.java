package org.pagefabric.hw.iommu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.hw.iommu.aa.AccessKind;
import org.pagefabric.hw.iommu.aa.AccessLog;
import org.pagefabric.hw.iommu.aa.AccessLogListener;
import org.pagefabric.hw.iommu.aa.AccessRecord;
import org.pagefabric.hw.iommu.aa.ActiveAccessUnit;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.hw.net.Packet;
import org.pagefabric.hw.net.PacketPool;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;

/**
 * Active Access's IOMMU extension driven packet by packet through a real {@link Iommu}: access
 * logs keep every entry, in order, under interleaving and backpressure; logs see exactly the
 * accesses that targeted their pages; IUIDs isolate processes; E=0 keeps the ordinary fault log.
 */
class ActiveAccessUnitTest {
    private static final IommuCosts COSTS = new IommuCosts(5, 70, 40, 30, 200);
    private static final long ACTIVE_PUT = MapPageTable.RW | Pte.WL | Pte.WLD | Pte.E;
    private static final long ACTIVE_GET = MapPageTable.RW | Pte.RL | Pte.RLD | Pte.E;
    private static final long PAGE = PhysicalMemory.PAGE_SIZE;

    private final Simulator sim = new Simulator(5);
    private final Iommu iommu = new Iommu(sim, "iommu", new IommuConfig(
            List.of(IotlbLevelConfig.fullyAssociative(64, ReplacementPolicy.LRU, 1)), null, 4, 16), COSTS);
    private final PacketPool pool = new PacketPool(4, 4096);
    private final Translation t = new Translation();

    private final class Counting implements AccessLogListener {
        long committed;
        long flushRequests;

        @Override
        public void committed(AccessLog log, int entries) {
            committed += entries;
        }

        @Override
        public void flushRequested(AccessLog log) {
            flushRequests++;
        }
    }

    private ActiveAccessUnit unit(int tagEntries) {
        ActiveAccessUnit unit = new ActiveAccessUnit(8, tagEntries, 4, 4096, 70);
        iommu.setInterceptor(unit);
        return unit;
    }

    /** Moves one packet of an access through the IOMMU; returns the translation's outcome. */
    private int packet(ActiveAccessUnit unit, int pdid, int device, long tag, long va, int length, int offset,
                       byte[] data, boolean write) {
        return packet(unit, pdid, device, tag, va, length, offset, data, write, length - offset);
    }

    private int packet(ActiveAccessUnit unit, int pdid, int device, long tag, long va, int length, int offset,
                       byte[] data, boolean write, int packetBytes) {
        int len = Math.min(Math.min(data.length, length) - offset, packetBytes);
        Packet p = pool.acquire();
        p.hasBytes = true;
        p.length = len;
        System.arraycopy(data, offset, p.bytes, 0, len);
        unit.beginPacket(device, tag, va, length, offset, p, len);
        iommu.translate(pdid, va + offset, write, t);
        if (!write && t.ok()) {
            unit.readReply(p);
        }
        pool.release(p);
        return t.outcome();
    }

    /** One device's access in progress. */
    private record Access(int device, long tag, long va, byte[] data, int packetBytes) {
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void noEntryIsLostOrReorderedUnderInterleavingAndBackpressure(long seed) {
        RandomStream rnd = new Simulator(seed).randomStream("test");
        ActiveAccessUnit unit = unit(4);
        MapPageTable pt = new MapPageTable();
        for (int i = 0; i < 4; i++) {
            pt.map(0x10_0000 + i * PAGE, 0x100 + i, Pte.withIuid(ACTIVE_PUT, 7));
        }
        iommu.bind(1, pt);
        AccessLog log = new AccessLog(7, 1, 0x7000_0000L, 6 * 1024);
        Counting listener = new Counting();
        unit.program(log, listener, true);
        int devices = 3;
        List<ArrayDeque<Access>> queues = new ArrayList<>();
        List<Access> sent = new ArrayList<>();
        for (int d = 0; d < devices; d++) {
            ArrayDeque<Access> q = new ArrayDeque<>();
            for (int k = 0; k < 25; k++) {
                int len = 8 * (1 + rnd.nextInt(512)); // 8 B .. 4 KiB
                byte[] data = new byte[len];
                for (int i = 0; i < len; i++) {
                    data[i] = (byte) rnd.nextInt(256);
                }
                long va = 0x10_0000 + rnd.nextInt((int) (4 * PAGE - len + 1)) / 8 * 8;
                q.add(new Access(d, k, va, data, 64 << rnd.nextInt(4)));
            }
            queues.add(q);
        }
        int[] offset = new int[devices];
        List<Access> firstAccepted = new ArrayList<>();
        List<AccessRecord> seen = new ArrayList<>();
        AccessRecord r = new AccessRecord(4096);
        int stalls = 0;
        int steps = 0;
        while (queues.stream().anyMatch(q -> !q.isEmpty()) || log.waiting() > 0) {
            assertTrue(++steps < 1_000_000, "progress: the log drains and every device gets through");
            int d = rnd.nextInt(devices);
            ArrayDeque<Access> q = queues.get(d);
            if (!q.isEmpty() && rnd.nextInt(4) != 0) {
                Access a = q.peekFirst();
                int outcome = packet(unit, 1, a.device, a.tag, a.va, a.data.length, offset[d], a.data, true,
                        a.packetBytes);
                if (unit.stalled()) {
                    stalls++;
                    assertEquals(Translation.ABSORBED, outcome, "a held-back packet moves nothing");
                    continue; // the device retries the same packet later
                }
                if (offset[d] == 0) {
                    firstAccepted.add(a);
                }
                offset[d] += Math.min(a.packetBytes, a.data.length - offset[d]);
                if (offset[d] == a.data.length) {
                    q.pollFirst();
                    sent.add(a);
                    offset[d] = 0;
                }
            } else if (rnd.nextInt(3) == 0) {
                while (log.poll(r)) {
                    AccessRecord copy = new AccessRecord(4096);
                    copy.kind = r.kind;
                    copy.device = r.device;
                    copy.tag = r.tag;
                    copy.va = r.va;
                    copy.length = r.length;
                    copy.sequence = r.sequence;
                    copy.dataLength = r.dataLength;
                    System.arraycopy(r.data, 0, copy.data, 0, r.dataLength);
                    seen.add(copy);
                }
            }
        }
        assertTrue(stalls > 0, "the log is small enough to push back");
        assertEquals(devices * 25, seen.size(), "every access logged exactly once");
        assertEquals(seen.size(), listener.committed, "the listener heard every commit");
        for (int i = 0; i < seen.size(); i++) {
            AccessRecord e = seen.get(i);
            Access a = firstAccepted.get(i);
            assertEquals(i, e.sequence);
            assertEquals(AccessKind.PUT_DATA, e.kind);
            assertEquals(a.device, e.device, "entries in the order of their accesses' first packets");
            assertEquals(a.tag, e.tag);
            assertEquals(a.va, e.va);
            assertArrayEquals(a.data, Arrays.copyOf(e.data, e.dataLength), "no hole, no foreign byte");
        }
        assertEquals(0, unit.tags().used(), "every tag buffer entry released");
        assertEquals(0, log.usedBytes());
    }

    @Test
    void logsSeeExactlyThePutsAndGetsThatTargetedTheirPages() {
        ActiveAccessUnit unit = unit(4);
        MapPageTable pt = new MapPageTable()
                .map(0x1000, 0x11, Pte.withIuid(ACTIVE_PUT, 1))
                .map(0x2000, 0x12, Pte.withIuid(ACTIVE_GET, 2))
                .map(0x3000, 0x13, MapPageTable.RW)
                .map(0x4000, 0x14, Pte.withIuid(MapPageTable.RW | Pte.WL | Pte.E, 1));
        iommu.bind(1, pt);
        AccessLog puts = new AccessLog(1, 1, 0, 64 * 1024);
        AccessLog gets = new AccessLog(2, 1, 0, 64 * 1024);
        unit.program(puts, null, false);
        unit.program(gets, null, false);
        byte[] d = {1, 2, 3, 4, 5, 6, 7, 8};
        packet(unit, 1, 0, 1, 0x1008, 8, 0, d, true);   // active put: data logged, W=1 also writes
        packet(unit, 1, 0, 2, 0x1010, 8, 0, d, false);  // get of a put-only page: not logged
        packet(unit, 1, 0, 3, 0x2000, 8, 0, d, false);  // active get: data replicated
        packet(unit, 1, 0, 4, 0x2000, 8, 0, d, true);   // put to a get-only page: not logged
        packet(unit, 1, 0, 5, 0x3000, 8, 0, d, true);   // plain page
        packet(unit, 1, 0, 6, 0x4000, 8, 0, d, true);   // metadata only
        AccessRecord r = new AccessRecord(4096);
        assertTrue(puts.poll(r));
        assertEquals(AccessKind.PUT_DATA, r.kind);
        assertEquals(0x1008, r.va);
        assertArrayEquals(d, Arrays.copyOf(r.data, r.dataLength));
        assertTrue(puts.poll(r));
        assertEquals(AccessKind.PUT, r.kind);
        assertEquals(0x4000, r.va);
        assertEquals(0, r.dataLength);
        assertFalse(puts.poll(r));
        assertTrue(gets.poll(r));
        assertEquals(AccessKind.GET_DATA, r.kind);
        assertEquals(3, r.tag);
        assertArrayEquals(d, Arrays.copyOf(r.data, r.dataLength), "the read reply's data, matched by tag");
        assertFalse(gets.poll(r));
    }

    @Test
    void iuidsIsolateProcesses() {
        ActiveAccessUnit unit = unit(4);
        // domain 1 owns IUID 3; domain 2's page table names IUID 3 on its own page
        iommu.bind(1, new MapPageTable().map(0x1000, 0x11, Pte.withIuid(ACTIVE_PUT, 3)));
        iommu.bind(2, new MapPageTable().map(0x1000, 0x21, Pte.withIuid(ACTIVE_PUT, 3))
                .map(0x5000, 0x22, Pte.withIuid(ACTIVE_PUT, 4)));
        AccessLog mine = new AccessLog(3, 1, 0, 4096);
        AccessLog theirs = new AccessLog(4, 2, 0, 4096);
        unit.program(mine, null, true);
        unit.program(theirs, null, true);
        byte[] d = new byte[8];
        packet(unit, 2, 0, 1, 0x1000, 8, 0, d, true);
        assertEquals(0, mine.reserved(), "a put to another process's page naming my IUID never reaches my log");
        assertEquals(1, unit.isolationRefusals());
        packet(unit, 2, 0, 2, 0x5000, 8, 0, d, true);
        packet(unit, 1, 0, 3, 0x1000, 8, 0, d, true);
        assertEquals(1, theirs.reserved());
        assertEquals(1, mine.reserved());
    }

    @Test
    void eZeroFaultsGoToTheOrdinaryFaultLogAndOversizeIsNotLogged() {
        ActiveAccessUnit unit = unit(4);
        long readOnlyLogged = Pte.withIuid(Pte.PRESENT | Pte.READABLE | Pte.WL | Pte.WLD, 1); // W=0, E=0
        iommu.bind(1, new MapPageTable().map(0x1000, 0x11, readOnlyLogged)
                .map(0x10_0000, 0x12, Pte.withIuid(ACTIVE_PUT, 1)).map(0x10_1000, 0x13, Pte.withIuid(ACTIVE_PUT, 1)));
        AccessLog log = new AccessLog(1, 1, 0, 16 * 1024);
        unit.program(log, null, false);
        assertEquals(Translation.FAULT, packet(unit, 1, 0, 1, 0x1000, 8, 0, new byte[8], true));
        assertEquals(1, iommu.faultLog().size());
        assertEquals(0, log.reserved());
        packet(unit, 1, 0, 2, 0x10_0000, 8192, 0, new byte[8192], true, 1024);
        assertEquals(1, unit.oversize(), "an active access is at most one 4 KiB transaction");
        assertEquals(0, log.reserved());
    }

    @Test
    void aGetOfTheFlushingPageCompletesOnceTheLogIsProcessed() {
        ActiveAccessUnit unit = unit(4);
        iommu.bind(1, new MapPageTable().map(0x1000, 0x11, Pte.withIuid(ACTIVE_PUT, 1))
                .map(0x9000, 0x19, Pte.withIuid(MapPageTable.RW, 1)));
        AccessLog log = new AccessLog(1, 1, 0, 16 * 1024);
        Counting listener = new Counting();
        unit.program(log, listener, false);
        unit.registerFlushingPage(0x9000, 1);
        packet(unit, 1, 0, 1, 0x1000, 8, 0, new byte[8], true);
        packet(unit, 1, 0, 2, 0x1008, 8, 0, new byte[8], true);
        packet(unit, 1, 5, 99, 0x9000, 8, 0, new byte[8], false);
        assertEquals(1, listener.flushRequests);
        int f = unit.flushing().find(0x9000, 1);
        assertTrue(unit.flushing().active(f));
        assertEquals(5, unit.flushing().requester(f));
        assertEquals(99, unit.flushing().tag(f));
        AccessRecord r = new AccessRecord(4096);
        log.poll(r);
        assertEquals(0, unit.completeFlushes(log), "one entry still unprocessed");
        log.poll(r);
        assertEquals(1, unit.completeFlushes(log));
        assertFalse(unit.flushing().active(f));
    }
}
