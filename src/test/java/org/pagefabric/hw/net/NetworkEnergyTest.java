package org.pagefabric.hw.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;

/** The NIC and router energy model: idle power over time plus bytes and packets per port. */
class NetworkEnergyTest {
    static final PowerParams DYNAMIC_ONLY = new PowerParams(0, 2e-9, 50e-9, 0, 3e-9, 70e-9);
    static final PowerParams IDLE_ONLY = new PowerParams(0.5, 0, 0, 0.25, 0, 0);

    /** Sends {@code packets} packets from {@code src} to {@code dst} on a fresh 27-node torus and runs. */
    static Network run(int packets, int src, int dst) {
        Simulator sim = new Simulator(1);
        Network net = RoutedTopologyTest.network(sim, "torus3d", 27);
        TopologyTest.attachRecorders(net, sim);
        for (int i = 0; i < packets; i++) {
            TopologyTest.send(net, src, dst, i);
        }
        sim.run();
        return net;
    }

    @ParameterizedTest(name = "{0} packets")
    @ValueSource(ints = {1, 3, 10})
    void dynamicEnergyGrowsLinearlyWithTheBytes(int packets) {
        NetworkEnergy one = NetworkEnergy.of(run(1, 0, 13), DYNAMIC_ONLY, Time.MS);
        NetworkEnergy many = NetworkEnergy.of(run(packets, 0, 13), DYNAMIC_ONLY, Time.MS);
        assertEquals(packets * one.nicJ(), many.nicJ(), 1e-18 * packets);
        assertEquals(packets * one.routerJ(), many.routerJ(), 1e-18 * packets);
        // One packet of 1000 wire bytes: sent and received by a NIC each.
        assertEquals(2 * (1000 * 2e-9 + 50e-9), one.nicJ(), 1e-18);
        assertEquals(2000, one.nicBytes());
    }

    @Test
    void anIdleNetworkDrawsIdlePowerTimesTime() {
        Simulator sim = new Simulator(1);
        Network net = RoutedTopologyTest.network(sim, "torus3d", 27);
        sim.run();
        NetworkEnergy e = NetworkEnergy.of(net, IDLE_ONLY, 2 * Time.MS);
        assertEquals(27 * 0.5 * 2e-3, e.nicJ(), 1e-15);
        // A 3x3x3 torus: 6 router ports each plus the node's port.
        assertEquals(27 * 7 * 0.25 * 2e-3, e.routerJ(), 1e-15);
        assertEquals(27 * 0.5, e.nicPowerW(), 1e-12);
        assertEquals(27 * 7 * 0.25, e.routerPowerW(), 1e-12);
        NetworkEnergy twice = NetworkEnergy.of(net, IDLE_ONLY, 4 * Time.MS);
        assertEquals(2 * e.nicJ(), twice.nicJ(), 1e-15);
        assertEquals(e.routerPowerW(), twice.routerPowerW(), 1e-12, "idle power does not depend on the duration");
    }

    @Test
    void longerPathsCostRoutersMoreAndNicsTheSame() {
        // In a 3x3x3 torus node 1 is one router hop from node 0, node 13 (1,1,1) three.
        NetworkEnergy near = NetworkEnergy.of(run(5, 0, 1), DYNAMIC_ONLY, Time.MS);
        NetworkEnergy far = NetworkEnergy.of(run(5, 0, 13), DYNAMIC_ONLY, Time.MS);
        assertEquals(near.nicJ(), far.nicJ(), 1e-18);
        assertTrue(far.routerJ() > near.routerJ(), far.routerJ() + " vs " + near.routerJ());
        assertEquals(2.0, far.routerJ() / near.routerJ(), 1e-9, "4 router traversals against 2");
    }

    @Test
    void anEmptyRunHasNoPower() {
        Simulator sim = new Simulator(1);
        Network net = RoutedTopologyTest.network(sim, "fat-tree", 16);
        NetworkEnergy e = NetworkEnergy.of(net, IDLE_ONLY, 0);
        assertEquals(0, e.nicPowerW());
        assertEquals(0, e.routerPowerW());
    }

    @Test
    void negativePowerParametersAreRefused() {
        org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new PowerParams(-1, 0, 0, 0, 0, 0));
    }
}
