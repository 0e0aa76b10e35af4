package org.pagefabric.hw.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.sim.Simulator;

/** Router topologies inside a {@link Network}: delivery, hop counts, timing and the transport over them. */
class RoutedTopologyTest {
    static final NetCosts COSTS = TopologyTest.COSTS;

    static Stream<Arguments> kindsAndSeeds() {
        Stream.Builder<Arguments> b = Stream.builder();
        for (String kind : Topologies.ROUTED) {
            for (long seed = 1; seed <= 3; seed++) {
                b.add(Arguments.of(kind, seed));
            }
        }
        return b.build();
    }

    static Stream<String> kinds() {
        return Topologies.ROUTED.stream();
    }

    static Network network(Simulator sim, String kind, int nodes) {
        return new Network(sim, "net", new PacketPool(16, 0), COSTS,
                RoutedTopology.factory(Topologies.geometry(kind, nodes)));
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("kindsAndSeeds")
    void everyPacketArrivesOnceAtItsDestination(String kind, long seed) {
        Simulator sim = new Simulator(seed);
        int nodes = 20 + (int) seed * 9;
        Network net = network(sim, kind, nodes);
        RoutedTopology topo = (RoutedTopology) net.topology();
        List<TopologyTest.Arrival> log = TopologyTest.attachRecorders(net, sim);
        SplittableRandom rnd = new SplittableRandom(seed);
        int[] expected = new int[500];
        long switchTraversals = 0;
        int loopback = 0;
        for (int id = 0; id < expected.length; id++) {
            int src = rnd.nextInt(nodes);
            int dst = rnd.nextInt(nodes);
            expected[id] = dst;
            if (src == dst) {
                loopback++;
            } else {
                switchTraversals += topo.routerHops(src, dst) + 1;
            }
            TopologyTest.send(net, src, dst, id);
        }
        sim.run();
        int[] arrived = new int[expected.length];
        java.util.Arrays.fill(arrived, -1);
        for (TopologyTest.Arrival a : log) {
            assertEquals(-1, arrived[(int) a.id()], "packet " + a.id() + " arrived twice");
            arrived[(int) a.id()] = a.node();
        }
        assertArrayEquals(expected, arrived);
        assertEquals(0, net.pool().inUse());
        long forwarded = 0;
        for (Switch s : topo.switches()) {
            forwarded += s.forwardedPackets();
        }
        assertEquals(switchTraversals, forwarded, "one forward per router on each route");
        assertEquals(2L * (expected.length - loopback), net.nicPackets(), "sent plus received, loopback excluded");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void anUnloadedPacketTakesItsRoutesLinksAndSwitches(String kind) {
        Simulator sim = new Simulator(1);
        Network net = network(sim, kind, 50);
        RoutedTopology topo = (RoutedTopology) net.topology();
        List<TopologyTest.Arrival> log = TopologyTest.attachRecorders(net, sim);
        // The farthest node from 0 in this topology.
        int far = 1;
        for (int d = 1; d < 50; d++) {
            if (topo.routerHops(0, d) > topo.routerHops(0, far)) {
                far = d;
            }
        }
        Route r = topo.route(0, far);
        assertEquals(topo.routerHops(0, far) + 2, r.length());
        assertNull(topo.sourceRoute(0, far), "packets carry no route: switches forward hop by hop");
        TopologyTest.send(net, 0, far, 1);
        sim.run();
        long serialization = COSTS.link().serializationPs(1000);
        assertEquals(List.of(new TopologyTest.Arrival(r.length() * serialization
                + r.propagationPs(COSTS.switchHopLatencyPs()), far, 1)), log);
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("kindsAndSeeds")
    void theReliableTransportDeliversEveryByteAcrossTheFabric(String kind, long seed) {
        TransportConfig cfg = TransportPropertyTest.config(
                seed % 2 == 0 ? RetransmissionMode.SELECTIVE : RetransmissionMode.GO_BACK_N, true, 1);
        int nodes = 30;
        RouterGeometry g = Topologies.geometry(kind, nodes);
        int far = nodes - 1 - (int) seed;
        TransferBed bed = new TransferBed(seed, cfg, 16 * 1024 + (int) seed * 53, RoutedTopology.factory(g), far);
        bed.net.setFaults(new LinkFaults(0.02, 0));
        List<Long> ids = bed.postAll(3000);
        bed.sim.run();
        assertArrayEquals(bed.src, bed.dst);
        assertEquals(ids, bed.deliveries);
        assertEquals(ReliableTransportTest.successes(ids), bed.completions);
        assertEquals(0, bed.pool.inUse());
        assertNotEquals(0, bed.senderCounter("retransmittedPackets"), "2 % loss per link over many packets");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kinds")
    void largeFabricsBuildWithoutPerPairState(String kind) {
        Simulator sim = new Simulator(1);
        Network net = network(sim, kind, 4096);
        RoutedTopology topo = (RoutedTopology) net.topology();
        int ports = 0;
        for (int r = 0; r < topo.geometry().routers(); r++) {
            ports += topo.geometry().degree(r);
        }
        assertEquals(2 * 4096 + ports, topo.links().size(), "inject and eject per node, one link per router port");
        assertEquals(4096 + ports, topo.switchPorts());
        List<TopologyTest.Arrival> log = TopologyTest.attachRecorders(net, sim);
        TopologyTest.send(net, 0, 4095, 7);
        TopologyTest.send(net, 4095, 1234, 8);
        sim.run();
        List<Integer> at = new ArrayList<>();
        log.forEach(a -> at.add(a.node()));
        assertEquals(List.of(4095, 1234), at.stream().sorted((x, y) -> y - x).toList());
    }

}
