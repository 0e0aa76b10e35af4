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
 * A row whose transfers failed the end-to-end check carries no performance figure: a cache
 * without a monitor keeps alloc-reuse's freed buffer registered, so the reallocated one's bytes
 * go to the old frames, which would otherwise read as a latency like any other.
 */
class UnverifiedRowTest {
    private static Map<String, Object> allocReuse(String policy) {
        return PointRun.run(ProfileRegistry.load("default"), policy, WorkloadRegistry.standard().byName("alloc-reuse"),
                1 << 20, 3, 1);
    }

    @Test
    void aRowThatFailedVerificationHasBlankFiguresAndSaysWhy() {
        Map<String, Object> row = allocReuse("cache-nomonitor");
        assertEquals(false, row.get("verified"));
        for (String figure : new String[] {"latency_us", "latency_p50_us", "latency_min_us", "latency_max_us",
                "bandwidth_MBps", "pinned_MiB", "setup_us", "registration_cpu_us", "simulated_us", "nic_energy_J",
                "nic_power_W"}) {
            assertTrue(row.containsKey(figure), figure + " stays a column");
            assertNull(row.get(figure), figure + " of a row that did not verify: " + row.get(figure));
        }
        assertTrue((Long) row.get("corrupted") > 0, "what the check counted stays: " + row);
        assertInstanceOf(Long.class, row.get("events"), "and so do the other counts of what happened");
        String reason = (String) row.get(PointRun.REASON);
        assertTrue(reason.contains("delivered wrong bytes"), reason);
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
