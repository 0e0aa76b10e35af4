package org.pagefabric.hw.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileException;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.net.FullMesh;
import org.pagefabric.hw.net.Star;
import org.pagefabric.hw.param.CpuParameters;
import org.pagefabric.hw.param.LinkParameters;
import org.pagefabric.hw.param.NicParameters;
import org.pagefabric.sim.Simulator;

/** Every bundled profile builds a cluster whose parts carry the profile's values and names. */
class ClusterBuildTest {
    static List<String> bundled() {
        return ProfileRegistry.bundledNames();
    }

    @ParameterizedTest
    @MethodSource("bundled")
    void everyBundledProfileBuildsTwoNodes(String name) {
        Profile p = ProfileRegistry.load(name);
        Simulator sim = new Simulator(1);
        Cluster c = Cluster.build(sim, p, 2);
        assertSame(sim, c.simulator());
        assertSame(p, c.profile());
        assertEquals(2, c.size());
        for (int i = 0; i < 2; i++) {
            Node n = c.node(i);
            assertEquals(i, n.id());
            assertEquals("node" + i, n.name());
            assertEquals("node" + i + ".nic", n.nic().name());
            assertEquals("node" + i + ".cpu", n.cpu().name());
            assertEquals("node" + i + ".pcie", n.pcie().name());
            assertEquals(p.count(CpuParameters.CORES), n.cpu().coreCount());
            assertEquals(CostsFromProfile.memoryBytes(p), n.memory().capacityFrames() * 4096);
            assertEquals(i, n.endpoint().node());
            assertSame(n.memory(), n.kernel().memory());
            if (p.flag(NicParameters.IOMMU)) {
                assertNotNull(n.iommu(), name);
                assertEquals("node" + i + ".iommu", n.iommu().name());
            } else {
                assertNull(n.iommu(), name);
            }
        }
        assertEquals(CostsFromProfile.transport(p), c.transport());
        assertEquals(CostsFromProfile.net(p), c.network().costs());
        assertTrue(c.network().pool().payloadCapacity() >= c.transport().mtuBytes(),
                "a packet must hold one MTU of payload");
        assertEquals(2, c.network().topology().nodeCount());
    }

    @ParameterizedTest
    @MethodSource("bundled")
    void fourNodesWhereTheTopologyAllowsIt(String name) {
        Profile p = ProfileRegistry.load(name);
        String topology = p.choice(LinkParameters.TOPOLOGY);
        if (topology.equals("two_nodes")) {
            ProfileException e = assertThrows(ProfileException.class, () -> Cluster.build(new Simulator(1), p, 4));
            assertEquals("network.topology", e.field());
            assertTrue(e.getMessage().contains("exactly 2 nodes, not 4"), e.getMessage());
            return;
        }
        Cluster c = Cluster.build(new Simulator(1), p, 4);
        assertEquals(4, c.size());
        assertEquals(4, c.network().topology().nodeCount());
        assertEquals(topology.equals("star") ? Star.class : FullMesh.class, c.network().topology().getClass());
        assertEquals("node3.nic", c.node(3).nic().name());
    }

    @Test
    void theBundledTopologiesAreTheSeedsWiring() {
        assertEquals("two_nodes", ProfileRegistry.load("aa-gem5").choice(LinkParameters.TOPOLOGY));
        assertEquals("star", ProfileRegistry.load("default").choice(LinkParameters.TOPOLOGY));
        assertEquals("star", ProfileRegistry.load("part-forth").choice(LinkParameters.TOPOLOGY));
    }

    @Test
    void nodesOutsideTheClusterAreRefused() {
        Cluster c = Cluster.build(new Simulator(1), ProfileRegistry.load("default"), 2);
        assertThrows(IndexOutOfBoundsException.class, () -> c.node(2));
        assertThrows(IndexOutOfBoundsException.class, () -> c.node(-1));
    }

    @Test
    void oneNodeIsNotANetwork() {
        ProfileException e = assertThrows(ProfileException.class,
                () -> Cluster.build(new Simulator(1), ProfileRegistry.load("default"), 1));
        assertEquals("network.topology", e.field());
    }

    @Test
    void aBadProfileRegistersNothingInTheSimulator() {
        Simulator sim = new Simulator(1);
        assertThrows(ProfileException.class, () -> Cluster.build(sim, ProfileRegistry.load("aa-gem5"), 3));
        assertTrue(sim.components().isEmpty(), sim.components().toString());
    }
}
