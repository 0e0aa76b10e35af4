package org.pagefabric.hw.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;

class LinkTest {
    record Arrival(long time, int packet) {
    }

    static final class Recorder implements PacketReceiver {
        final Simulator sim;
        final PacketPool pool;
        final List<Arrival> arrivals = new ArrayList<>();

        Recorder(Simulator sim, PacketPool pool) {
            this.sim = sim;
            this.pool = pool;
        }

        @Override
        public void receive(Packet p) {
            arrivals.add(new Arrival(sim.now(), p.index()));
            pool.release(p);
        }
    }

    @Test
    void serializationIsExactAndRoundsUp() {
        LinkParams gig = new LinkParams(0, 1_000_000_000L);
        assertEquals(1_000 * 1_000L, gig.serializationPs(1_000), "1000 B at 1 GB/s is 1 us");
        LinkParams hundredGbit = new LinkParams(0, 12_500_000_000L);
        assertEquals(80L * 4096, hundredGbit.serializationPs(4096), "80 ps per byte at 100 Gb/s");
        LinkParams three = new LinkParams(0, 3);
        assertEquals(333_333_333_334L, three.serializationPs(1), "rounded up, never faster than the rate");
        assertEquals(0, gig.serializationPs(0));
    }

    @Test
    void hugeByteCountsTakeTheExactSlowPath() {
        LinkParams p = new LinkParams(0, 999);
        long bytes = 100_000_001L; // beyond the fast path's 9.2e6 limit
        long expected = java.math.BigInteger.valueOf(bytes).multiply(java.math.BigInteger.TEN.pow(12))
                .add(java.math.BigInteger.valueOf(998)).divide(java.math.BigInteger.valueOf(999)).longValueExact();
        assertEquals(expected, p.serializationPs(bytes));
    }

    @Test
    void rejectsBadParameters() {
        assertThrows(IllegalArgumentException.class, () -> new LinkParams(-1, 1));
        assertThrows(IllegalArgumentException.class, () -> new LinkParams(0, 0));
        assertThrows(IllegalArgumentException.class, () -> new LinkFaults(1.5, 0));
        assertThrows(IllegalArgumentException.class, () -> new NetCosts(new LinkParams(0, 1), -1, 0));
    }

    private static Packet packet(PacketPool pool, int wireBytes) {
        Packet p = pool.acquire();
        p.kind = PacketKind.DATA;
        p.wireBytes = wireBytes;
        return p;
    }

    @Test
    void busyLinkQueuesBackToBack() {
        Simulator sim = new Simulator(1);
        PacketPool pool = new PacketPool(4, 0);
        Link link = new Link(sim, null, "l", new LinkParams(500 * Time.NS, 1_000_000_000L), pool);
        Recorder r = new Recorder(sim, pool);
        link.connect(r);
        // Three 1000-byte packets offered at t=0: each takes 1 us to serialize.
        long e0 = link.transmit(packet(pool, 1000));
        long e1 = link.transmit(packet(pool, 1000));
        long e2 = link.transmit(packet(pool, 1000));
        assertEquals(List.of(1 * Time.US, 2 * Time.US, 3 * Time.US), List.of(e0, e1, e2));
        assertEquals(3 * Time.US, link.freeAt());
        sim.run();
        assertEquals(List.of(new Arrival(1_500 * Time.NS, 0), new Arrival(2_500 * Time.NS, 1), new Arrival(3_500 * Time.NS, 2)),
                r.arrivals);
        assertEquals(0, pool.inUse());
    }

    @Test
    void idleLinkDoesNotQueue() {
        Simulator sim = new Simulator(1);
        PacketPool pool = new PacketPool(4, 0);
        Link link = new Link(sim, null, "l", new LinkParams(200, 1_000_000_000L), pool);
        Recorder r = new Recorder(sim, pool);
        link.connect(r);
        link.transmit(packet(pool, 10)); // 10 ns
        sim.schedule(50 * Time.NS, (t, a) -> link.transmit(packet(pool, 10)), 0, 0);
        sim.run();
        assertEquals(10 * Time.NS + 200, r.arrivals.get(0).time());
        assertEquals(60 * Time.NS + 200, r.arrivals.get(1).time(), "offered after the link went idle: no wait");
        var delay = (org.pagefabric.sim.stat.Accumulator) sim.statistics().get("l.queueingDelay");
        assertEquals(0, delay.max());
    }

    @Test
    void lossAndCorruptionAreDrawnPerPacket() {
        Simulator sim = new Simulator(9);
        PacketPool pool = new PacketPool(4, 16);
        Link link = new Link(sim, null, "l", new LinkParams(0, 1_000_000_000L), pool);
        Recorder r = new Recorder(sim, pool);
        link.connect(r);
        link.setFaults(new LinkFaults(1, 0));
        for (int i = 0; i < 10; i++) {
            link.transmit(packet(pool, 100));
        }
        sim.run();
        assertEquals(0, r.arrivals.size());
        assertEquals(10, ((org.pagefabric.sim.stat.Counter) sim.statistics().get("l.lost")).value());
        assertEquals(0, pool.inUse(), "lost packets go back to the pool");

        link.setFaults(new LinkFaults(0, 1));
        Packet p = packet(pool, 100);
        p.hasBytes = true;
        p.length = 16;
        p.checksum = Checksum.of(p);
        long before = p.checksum;
        link.transmit(p);
        assertEquals(before, p.checksum, "the checksum travels unchanged");
        org.junit.jupiter.api.Assertions.assertNotEquals(before, Checksum.of(p), "one flipped payload bit fails the checksum");
        sim.run();
    }

    @Test
    void corruptionOfATagOrAControlPacketFailsTheChecksum() {
        Simulator sim = new Simulator(3);
        PacketPool pool = new PacketPool(4, 0);
        Link link = new Link(sim, null, "l", new LinkParams(0, 1_000_000_000L), pool);
        link.connect(new Recorder(sim, pool));
        link.setFaults(new LinkFaults(0, 1));
        for (PacketKind kind : PacketKind.values()) {
            Packet p = packet(pool, 64);
            p.kind = kind;
            p.reason = kind == PacketKind.NACK ? NackReason.SEQUENCE : null;
            p.contentTag = 42;
            p.checksum = Checksum.of(p);
            link.transmit(p);
            assertEquals(true, Checksum.of(p) != p.checksum, kind + " corruption must be detectable");
        }
        sim.run();
    }

    @Test
    void poolRecyclesAndCatchesDoubleRelease() {
        PacketPool pool = new PacketPool(1, 8);
        Packet a = pool.acquire();
        Packet b = pool.acquire(); // grows
        assertEquals(2, pool.capacity());
        pool.release(a);
        assertThrows(IllegalStateException.class, () -> pool.release(a));
        assertEquals(a, pool.acquire(), "a released packet is reused");
        pool.release(b);
        assertEquals(1, pool.inUse());
    }
}
