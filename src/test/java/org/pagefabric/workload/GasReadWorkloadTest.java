package org.pagefabric.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;

/**
 * A paged global address space: each remote page is fetched once, on its first access, and every
 * later read of it is local; explicit gets cross the network for every word.
 */
class GasReadWorkloadTest {
    private static final Profile CRAY = ProfileRegistry.load("aa-crayxe6");

    private static Map<String, Object> point(String policy, String access, long stride, long passes) {
        return PointRun.run(CRAY, policy, new GasReadWorkload(), Map.of("array_KiB", 16L, "stride_B", stride,
                "iterations", passes, "access", access), 1);
    }

    @ParameterizedTest
    @CsvSource({"pin-all", "cache-mmu", "odp-explicit", "aa-poll"})
    void pagedReadsFetchEachPageOnceAndDeliverTheHomeData(String policy) {
        Map<String, Object> row = point(policy, "page", 64, 3);
        assertEquals(true, row.get("verified"), row.toString());
        assertEquals(3L * 16384 / 64, row.get("reads"), row.toString());
        assertEquals(4L, row.get("remote_reads"), row.toString());
        assertEquals(16L, row.get("fetched_KiB"), row.toString());
    }

    /** Seeded random shapes: a page is fetched exactly once however often and densely it is read. */
    @ParameterizedTest
    @CsvSource({"1", "2", "3", "4", "5", "6"})
    void everyPageIsFetchedOnceWhateverTheShape(long seed) {
        java.util.Random r = new java.util.Random(seed);
        long pages = 1 + r.nextInt(6);
        long stride = 8L << r.nextInt(10);
        long passes = 1 + r.nextInt(3);
        String policy = new String[] {"pin-all", "cache-mmu", "aa-poll"}[r.nextInt(3)];
        Map<String, Object> row = PointRun.run(CRAY, policy, new GasReadWorkload(), Map.of("array_KiB", pages * 4,
                "stride_B", stride, "iterations", passes, "access", "page"), seed);
        String at = "seed " + seed + ": " + row;
        assertEquals(true, row.get("verified"), at);
        assertEquals(pages, row.get("remote_reads"), at);
        assertEquals(passes * pages * 4096 / stride, row.get("reads"), at);
    }

    @Test
    void explicitGetsCrossTheNetworkForEveryRead() {
        Map<String, Object> row = point("pin-all", "get", 512, 2);
        assertEquals(true, row.get("verified"), row.toString());
        assertEquals(64L, row.get("remote_reads"), row.toString());
        assertEquals(0L, row.get("fetched_KiB"), row.toString());
    }

    @Test
    void pagingWinsWithLocalityAndLosesWithoutIt() {
        double pagedDense = (Double) point("pin-all", "page", 64, 2).get("latency_us");
        double getsDense = (Double) point("pin-all", "get", 64, 2).get("latency_us");
        assertTrue(pagedDense < getsDense / 5, pagedDense + " vs " + getsDense);
        double pagedSparse = (Double) point("pin-all", "page", 4096, 1).get("latency_us");
        double getsSparse = (Double) point("pin-all", "get", 4096, 1).get("latency_us");
        assertTrue(pagedSparse > getsSparse, pagedSparse + " vs " + getsSparse);
    }

    @Test
    void aStrideThatDoesNotDivideAPageIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new GasReadWorkload().resolve(Map.of("stride_B", 24L)));
        assertTrue(e.getMessage().contains("stride_B"), e.getMessage());
    }
}
