package org.pagefabric.hw.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;

class TopologyTest {
    // 1 GB/s: 1 ns per byte; 64-byte header, 936-byte payload = 1000 wire bytes = 1 us.
    static final NetCosts COSTS = new NetCosts(new LinkParams(300 * Time.NS, 1_000_000_000L), 50 * Time.NS, 64);

    record Arrival(long time, int node, long id) {
    }

    static List<Arrival> attachRecorders(Network net, Simulator sim) {
        List<Arrival> log = new ArrayList<>();
        for (int n = 0; n < net.topology().nodeCount(); n++) {
            int node = n;
            net.attach(n, p -> {
                log.add(new Arrival(sim.now(), node, p.messageId));
                net.pool().release(p);
            });
        }
        return log;
    }

    static void send(Network net, int src, int dst, long id) {
        Packet p = net.pool().acquire();
        p.kind = PacketKind.DATA;
        p.src = src;
        p.dst = dst;
        p.messageId = id;
        p.length = 936;
        net.send(p);
    }

    @Test
    void starRouteCrossesTwoLinksAndOneSwitch() {
        Simulator sim = new Simulator(1);
        Network net = new Network(sim, "net", new PacketPool(8, 0), COSTS, Star.factory(4));
        List<Arrival> log = attachRecorders(net, sim);
        send(net, 0, 2, 1);
        sim.run();
        long oneHop = 1 * Time.US + 300 * Time.NS;
        assertEquals(List.of(new Arrival(2 * oneHop + 50 * Time.NS, 2, 1)), log);
        Route r = net.topology().route(0, 2);
        assertEquals(2, r.length());
        assertEquals("net.up0", r.hop(0).name());
        assertEquals("net.down2", r.hop(1).name());
        assertEquals(650 * Time.NS, r.propagationPs(COSTS.switchHopLatencyPs()));
        assertEquals(1, net.topology().switches().size());
        assertEquals(8, net.topology().links().size());
    }

    @Test
    void starOutputPortContention() {
        Simulator sim = new Simulator(1);
        Network net = new Network(sim, "net", new PacketPool(8, 0), COSTS, Star.factory(3));
        List<Arrival> log = attachRecorders(net, sim);
        send(net, 0, 2, 10);
        send(net, 1, 2, 11);
        sim.run();
        long first = 2 * (1 * Time.US + 300 * Time.NS) + 50 * Time.NS;
        // Both reach the switch together; the second waits one serialization time at down2.
        assertEquals(List.of(new Arrival(first, 2, 10), new Arrival(first + 1 * Time.US, 2, 11)), log);
    }

    @Test
    void fullMeshPairsDoNotContend() {
        Simulator sim = new Simulator(1);
        Network net = new Network(sim, "net", new PacketPool(8, 0), COSTS, FullMesh.factory(3));
        List<Arrival> log = attachRecorders(net, sim);
        send(net, 0, 2, 10);
        send(net, 1, 2, 11);
        sim.run();
        long t = 1 * Time.US + 300 * Time.NS;
        assertEquals(List.of(new Arrival(t, 2, 10), new Arrival(t, 2, 11)), log);
        assertEquals(6, net.topology().links().size());
        assertNotSame(net.topology().route(0, 1).hop(0), net.topology().route(1, 0).hop(0));
        assertSame(net.topology().route(0, 1), net.topology().route(0, 1));
    }

    @Test
    void twoNodesShareOneLinkPerDirection() {
        Simulator sim = new Simulator(1);
        Network net = new Network(sim, "net", new PacketPool(8, 0), COSTS, FullMesh.twoNodes());
        List<Arrival> log = attachRecorders(net, sim);
        send(net, 0, 1, 1);
        send(net, 0, 1, 2);
        send(net, 1, 0, 3);
        sim.run();
        long t = 1 * Time.US + 300 * Time.NS;
        assertEquals(List.of(new Arrival(t, 1, 1), new Arrival(t, 0, 3), new Arrival(t + 1 * Time.US, 1, 2)), log);
        assertEquals(0, net.pool().inUse());
    }

    @Test
    void loopbackSkipsTheLinks() {
        Simulator sim = new Simulator(1);
        Network net = new Network(sim, "net", new PacketPool(8, 0), COSTS, Star.factory(2));
        List<Arrival> log = attachRecorders(net, sim);
        sim.schedule(5 * Time.NS, (t, a) -> send(net, 1, 1, 9), 0, 0);
        sim.run();
        assertEquals(List.of(new Arrival(5 * Time.NS, 1, 9)), log);
    }

    @Test
    void packetsToUnattachedNodesAreCountedAndFreed() {
        Simulator sim = new Simulator(1);
        Network net = new Network(sim, "net", new PacketPool(8, 0), COSTS, FullMesh.twoNodes());
        send(net, 0, 1, 1);
        sim.run();
        assertEquals(1, ((org.pagefabric.sim.stat.Counter) sim.statistics().get("net.undeliverable")).value());
        assertEquals(0, net.pool().inUse());
    }
}
