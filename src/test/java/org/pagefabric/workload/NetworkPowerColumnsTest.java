package org.pagefabric.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.net.Topologies;

/** Every workload row carries the network's energy and power; every routed topology runs a verified workload. */
class NetworkPowerColumnsTest {
    static Profile on(String topology) {
        return ProfileRegistry.load("default").withOverrides(Map.of("network.topology", topology), "test");
    }

    static Stream<String> topologies() {
        return Stream.concat(Stream.of("star", "full_mesh"), Topologies.ROUTED.stream());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("topologies")
    void bandwidthIsVerifiedAndPowered(String topology) {
        Map<String, Object> row = PointRun.run(on(topology), "pin-all", WorkloadRegistry.standard().byName("bandwidth"), 64 * 1024, 5, 1);
        assertEquals(true, row.get("verified"));
        assertTrue((double) row.get("nic_energy_J") > 0);
        assertTrue((double) row.get("nic_power_W") > 0);
        if (topology.equals("full_mesh")) {
            assertEquals(0.0, row.get("router_energy_J"), "no routers in a full mesh");
        } else {
            assertTrue((double) row.get("router_power_W") > 0);
        }
        assertTrue(row.keySet().containsAll(PointRun.METRICS), "every metric column present");
    }

    @Test
    void moreBytesMoreNicEnergy() {
        Workload w = WorkloadRegistry.standard().byName("bandwidth");
        double small = (double) PointRun.run(on("torus3d"), "pin-all", w, 4096, 5, 1).get("nic_energy_J");
        double large = (double) PointRun.run(on("torus3d"), "pin-all", w, 1 << 20, 5, 1).get("nic_energy_J");
        assertTrue(large > small, large + " vs " + small);
    }

    @Test
    void sameSeedSameEnergy() {
        Workload w = WorkloadRegistry.standard().byName("bandwidth");
        assertEquals(PointRun.run(on("dragonfly"), "pin-all", w, 65536, 5, 3),
                PointRun.run(on("dragonfly"), "pin-all", w, 65536, 5, 3));
    }
}
