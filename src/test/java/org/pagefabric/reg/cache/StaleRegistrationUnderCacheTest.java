package org.pagefabric.reg.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.workload.AllocReuseWorkload;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.WorkloadRegistry;

/**
 * The stale-registration scenario end to end, under each monitor: buffers are malloc'd, used for
 * an RDMA transfer, freed (munmap'd) and malloc'd again at the same address. A cache whose
 * monitor misses the unmap hands out the old registration and the integrity check catches the
 * data going to (or coming from) the old frames; a monitor that sees it keeps every transfer
 * intact.
 */
class StaleRegistrationUnderCacheTest {
    private static final Profile PROFILE = ProfileRegistry.load("default");
    private static final int ITERATIONS = 6;

    private static Map<String, Object> run(String policy, boolean custom, boolean read) {
        return PointRun.run(PROFILE, policy, WorkloadRegistry.standard().byName("alloc-reuse"),
                Map.of("size_B", 256 * 1024, "iterations", ITERATIONS, AllocReuseWorkload.CUSTOM_ALLOCATOR, custom,
                        AllocReuseWorkload.READ, read), 7);
    }

    @ParameterizedTest(name = "{0} custom={1} read={2}")
    @CsvSource({
        "cache-nomonitor, false, false", "cache-nomonitor, false, true", "cache-nomonitor, true, false",
        "cache-hooks, true, false", "cache-hooks, true, true"})
    void aMonitorThatMissesTheUnmapLetsTransfersCorruptSilently(String policy, boolean custom, boolean read) {
        Map<String, Object> row = run(policy, custom, read);
        assertFalse((Boolean) row.get("verified"));
        long corrupted = (Long) row.get(AllocReuseWorkload.CORRUPTED);
        // the first iteration registers fresh memory; each later one reuses the address
        assertEquals(ITERATIONS - 1, corrupted, row.toString());
    }

    @ParameterizedTest(name = "{0} custom={1} read={2}")
    @CsvSource({
        "cache-hooks, false, false", "cache-hooks, false, true", "cache-mmu, false, false", "cache-mmu, true, false",
        "cache-mmu, true, true", "cache-uffd, false, false", "cache-uffd, true, false", "cache-uffd, true, true",
        "cache-kdreg2, false, false", "cache-kdreg2, true, false", "cache-kdreg2, true, true"})
    void aMonitorThatSeesTheUnmapKeepsEveryTransferIntact(String policy, boolean custom, boolean read) {
        Map<String, Object> row = run(policy, custom, read);
        assertTrue((Boolean) row.get("verified"), row.toString());
        assertEquals(0L, row.get(AllocReuseWorkload.CORRUPTED));
    }

    @Test
    void buffersBelowTheMmapThresholdAreNeverUnmappedSoEvenNoMonitorStaysCorrect() {
        Map<String, Object> row = PointRun.run(PROFILE, "cache-nomonitor", WorkloadRegistry.standard().byName("alloc-reuse"),
                Map.of("size_B", 16 * 1024, "iterations", ITERATIONS), 7);
        assertTrue((Boolean) row.get("verified"), row.toString());
    }

    @Test
    void theCacheSavesRegistrationsWhenNothingIsInvalidated() {
        Map<String, Object> safe = run("cache-mmu", false, false);
        Map<String, Object> unsafe = run("cache-nomonitor", false, false);
        // The unsafe row did not verify, so it has no latency to show; it still does less work.
        assertNull(unsafe.get("latency_us"), unsafe.toString());
        assertTrue((Long) unsafe.get("events") < (Long) safe.get("events"),
                "hits (stale ones) skip the registration a correct cache must redo");
    }

    @Test
    void everyCachePolicyIsRegisteredWithADescription() {
        for (MonitorKind m : MonitorKind.values()) {
            assertTrue(PolicyRegistry.standard().names().contains(m.policyName()));
            assertFalse(PolicyRegistry.standard().descriptor(m.policyName()).description().isBlank());
            assertEquals(m.policyName(), PolicyRegistry.standard().create(m.policyName(), PROFILE).name());
        }
    }

    @Test
    void theSameSeedGivesTheSameRow() {
        assertEquals(run("cache-uffd", false, true), run("cache-uffd", false, true));
        assertEquals(run("cache-hooks", true, false), run("cache-hooks", true, false));
    }
}
