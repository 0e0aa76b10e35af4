package org.pagefabric.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;

/**
 * A row whose transfers failed the end-to-end check carries no performance figure: pin-all
 * registers only its segment, so alloc-reuse's malloc'd buffers have no key and every transfer
 * fails at once, which would otherwise read as a 0.25 us latency.
 */
class UnverifiedRowTest {
    private static Map<String, Object> allocReuse(String policy) {
        return PointRun.run(ProfileRegistry.load("default"), policy, WorkloadRegistry.standard().byName("alloc-reuse"),
                4096, 3, 1);
    }

    @Test
    void aRowThatFailedVerificationHasBlankFiguresAndSaysWhy() {
        Map<String, Object> row = allocReuse("pin-all");
        assertEquals(false, row.get("verified"));
        for (String figure : new String[] {"latency_us", "latency_p50_us", "latency_min_us", "latency_max_us",
                "bandwidth_MBps", "pinned_MiB", "setup_us", "registration_cpu_us", "simulated_us", "nic_energy_J",
                "nic_power_W"}) {
            assertTrue(row.containsKey(figure), figure + " stays a column");
            assertNull(row.get(figure), figure + " of a row that did not verify: " + row.get(figure));
        }
        assertEquals(0L, row.get("corrupted"), "what the check counted stays");
        assertInstanceOf(Long.class, row.get("events"), "and so do the other counts of what happened");
        String reason = (String) row.get(PointRun.REASON);
        assertTrue(reason.startsWith("3 of 3 transfers completed with LOCAL_PROTECTION_ERROR"), reason);
        assertTrue(reason.contains("not in memory the policy registered"), reason);
    }

    @Test
    void putsTheTransportGaveUpOnSayHowManyAndWhy() {
        Profile lossy = ProfileRegistry.resolve("default").withOverrides(Map.of("link.loss", "0.9"), "test");
        Map<String, Object> row = PointRun.run(lossy, "pin-all", WorkloadRegistry.standard().byName("bandwidth"),
                65536, 3, 1);
        assertEquals(false, row.get("verified"));
        assertEquals("3 of 3 puts completed with RETRY_EXCEEDED: the transport gave up at its retry limit",
                row.get(PointRun.REASON));
    }

    @Test
    void aVerifiedRowKeepsItsFiguresAndHasNoReason() {
        Map<String, Object> row = allocReuse("cache-mmu");
        assertEquals(true, row.get("verified"));
        assertInstanceOf(Double.class, row.get("latency_us"));
        assertTrue((Double) row.get("latency_us") > 1, row.toString());
        assertFalse(row.containsKey(PointRun.REASON));
    }
}
