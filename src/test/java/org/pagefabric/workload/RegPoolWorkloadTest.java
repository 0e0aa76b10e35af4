package org.pagefabric.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;

/** Registering a large pool: costs per call, threads across NICs, and growth with what a domain holds. */
class RegPoolWorkloadTest {
    private static Map<String, Object> run(Map<String, String> profileSet, Map<String, Object> params) {
        Profile p = ProfileRegistry.load("default").withOverrides(profileSet, "test");
        Map<String, Object> row = PointRun.run(p, "pin-all", WorkloadRegistry.standard().byName("reg-pool"),
                new HashMap<>(params), 1);
        assertEquals(true, row.get("verified"), row.toString());
        return row;
    }

    private static final Map<String, String> COSTS = Map.of("nic.register.base", "16us", "nic.register.per_page",
            "100ns", "nic.deregister.base", "10us", "nic.deregister.per_page", "20ns");

    @Test
    void aPoolOfFiveHundredGibCostsPerPageWithoutMappingAPage() {
        long start = System.nanoTime();
        Map<String, Object> row = run(COSTS, Map.of("large_count", 1L, "large_MiB", 512000.0, "nics", 2L));
        assertTrue(System.nanoTime() - start < 5_000_000_000L, "costed per call, not per page");
        long pages = 512000L * 256;
        // one thread registers the pool on each of the two NICs in turn
        assertEquals(2 * (16e-6 + pages * 100e-9), (Double) row.get("register_s"), 0.002);
        assertEquals(2 * (10e-6 + pages * 20e-9), (Double) row.get("deregister_s"), 0.002);
        assertEquals(512000.0 * 1024 * 1024 / 1e9, (Double) row.get("pool_GB"), 0.001);
    }

    @Test
    void oneThreadPerNicRegistersTheNicsAtOnce() {
        Map<String, Object> one = run(COSTS, Map.of("large_MiB", 65536.0, "nics", 8L, "threads", 1L));
        Map<String, Object> eight = run(COSTS, Map.of("large_MiB", 65536.0, "nics", 8L, "threads", 8L));
        assertEquals(8.0, (Double) one.get("register_s") / (Double) eight.get("register_s"), 0.01);
        assertEquals(8.0, (Double) one.get("deregister_s") / (Double) eight.get("deregister_s"), 0.01);
    }

    @Test
    void hugePagesCutThePerPagePart() {
        Map<String, Object> small = run(COSTS, Map.of("large_MiB", 4096.0, "page_KiB", 4L));
        Map<String, Object> huge = run(COSTS, Map.of("large_MiB", 4096.0, "page_KiB", 2048L));
        assertEquals(512.0, ((Double) small.get("register_s") - 16e-6) / ((Double) huge.get("register_s") - 16e-6), 5);
    }

    @Test
    void deviceRegistrationsGrowWithWhatTheDomainHoldsAndHostOnesDoNot() {
        Map<String, String> growth = new HashMap<>(COSTS);
        growth.put("nic.register.device_growth", "100ms");
        Map<String, Object> empty = run(growth, Map.of("large_MiB", 2.0, "memory", "device"));
        Map<String, Object> full = run(growth, Map.of("large_MiB", 2.0, "memory", "device", "prior_GiB", 10.0));
        Map<String, Object> host = run(growth, Map.of("large_MiB", 2.0, "memory", "host", "prior_GiB", 10.0));
        assertEquals(1000.0, (Double) full.get("first_ms") - (Double) empty.get("first_ms"), 0.01);
        assertTrue((Double) host.get("first_ms") < 1, host.toString());
    }

    @Test
    void registeringSmallBuffersFirstCostsLessThanLargeFirst() {
        Map<String, String> growth = new HashMap<>(COSTS);
        growth.put("nic.register.device_growth", "100ms");
        Map<String, Object> mix = Map.of("large_count", 4L, "large_MiB", 1024.0, "small_count", 4L, "small_MiB", 1.0,
                "memory", "device");
        Map<String, Object> asc = new HashMap<>(mix);
        asc.put("order", "ascending");
        Map<String, Object> desc = new HashMap<>(mix);
        desc.put("order", "descending");
        double a = (Double) run(growth, asc).get("register_s");
        double d = (Double) run(growth, desc).get("register_s");
        // ascending: the larges find 0.004, 1.004, 2.004, 3.004 GiB; descending: the smalls find 4 GiB each
        assertEquals(0.1 * (6.016 + 0.006), a, 0.01);
        assertEquals(0.1 * (6 + 16.006), d, 0.01);
    }

    @Test
    void aPageSizeThatIsNoPowerOfTwoOrAnEmptyPoolIsRefusedBeforeAnyPointRuns() {
        Workload w = WorkloadRegistry.standard().byName("reg-pool");
        Profile p = ProfileRegistry.load("default");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> w.check(w.resolve(Map.of("page_KiB", 5L)), p));
        assertTrue(e.getMessage().startsWith("page_KiB: 5"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> w.check(w.resolve(Map.of("large_count", 0L)), p));
    }
}
