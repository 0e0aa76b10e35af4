package org.pagefabric.workload.aaapps;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.workload.PointRun;

/**
 * The applications under every scheme: counts equal the accesses made, every log holds exactly
 * the gets that read its process in issue order, the sort is sorted and a permutation; a tiny
 * access log forces backpressure without losing an entry; the same seed gives the same row.
 */
class AaAppsWorkloadTest {
    private static final Profile PROFILE = ProfileRegistry.load("aa-crayxe6");

    private static Map<String, Object> run(Profile profile, String policy, org.pagefabric.workload.Workload w,
                                           Map<String, ?> params, long seed) {
        return PointRun.run(profile, policy, w, params, seed);
    }

    @ParameterizedTest
    @CsvSource({"aa-poll,1", "aa-sp,2", "aa-int,3", "rma,4", "akv,5", "allreduce,6", "no-count,7", "allreduce,8"})
    void countsEqualTheAccessesMade(String policy, long seed) {
        // 7 processes on nodes of 3: a process count that is not a power of two (the Allreduce folds the extras in)
        var row = run(PROFILE, policy, new AccessCounterWorkload(), Map.of("processes", 7, "processes_per_node", 3,
                "accesses_per_process", 60, "pages_per_process", 3), seed);
        assertEquals(true, row.get("verified"), row.toString());
        assertTrue((Double) row.get("accesses_per_s") > 0, row.toString());
    }

    @ParameterizedTest
    @CsvSource({"no-ft,1", "aa-poll,2", "rma,3", "am,4", "aa-poll,5"})
    void everyLogHoldsExactlyItsGetsInOrder(String policy, long seed) {
        var row = run(PROFILE, policy, new LoggedGetsWorkload(), Map.of("processes", 6, "processes_per_node", 2,
                "gets_per_process", 50, "get_size_B", 64), seed);
        assertEquals(true, row.get("verified"), row.toString());
        assertEquals(policy.equals("no-ft") ? 0L : 300L, row.get("logged_entries"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"no-ft", "aa-poll", "rma", "am"})
    void sortIsSortedAndAPermutation(String policy) {
        var row = run(PROFILE, policy, new CoralSortWorkload(), Map.of("processes", 5, "processes_per_node", 2,
                "data_MiB", 1, "chunk_B", 1024), 3);
        assertEquals(true, row.get("verified"), row.toString());
        assertEquals(row.get("gets"), row.get("logged_entries").equals(0L) ? row.get("gets") : row.get("logged_entries"));
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void aFullLogHoldsAccessesBackAndLosesNone(long seed) {
        // room for two 4 KiB entries: sixteen processes reading one target's log run into backpressure
        Profile small = PROFILE.withOverrides(Map.of("aa.access_log.size", "8 KiB"), "test");
        var gets = run(small, "aa-poll", new CoralSortWorkload(), Map.of("processes", 16, "processes_per_node", 4,
                "data_MiB", 1), seed);
        assertEquals(true, gets.get("verified"), gets.toString());
        assertTrue((Long) gets.get("log_stalls") > 0, "the log filled: " + gets);
        Profile tiny = PROFILE.withOverrides(Map.of("aa.access_log.size", "64 B"), "test");
        var puts = run(tiny, "aa-poll", new AccessCounterWorkload(), Map.of("processes", 16, "processes_per_node", 8,
                "accesses_per_process", 40), seed);
        assertEquals(true, puts.get("verified"), puts.toString());
        assertTrue((Long) puts.get("log_stalls") > 0, "the log filled: " + puts);
    }

    @ParameterizedTest
    @ValueSource(strings = {"aa-poll", "rma", "am"})
    void loggingCostsBytesOnlyWhenDataGoesBack(String policy) {
        var base = run(PROFILE, "no-ft", new LoggedGetsWorkload(), Map.of("processes", 8, "processes_per_node", 4,
                "gets_per_process", 40), 1);
        var row = run(PROFILE, policy, new LoggedGetsWorkload(), Map.of("processes", 8, "processes_per_node", 4,
                "gets_per_process", 40), 1);
        long b = (Long) base.get("bytes_communicated");
        long r = (Long) row.get("bytes_communicated");
        if (policy.equals("aa-poll")) {
            assertEquals(b, r, "the IOMMU logs at the target: no byte more on the network");
        } else {
            assertTrue(r > b, "the data travels back: " + r + " vs " + b);
        }
        assertTrue((Double) row.get("gets_per_s") <= (Double) base.get("gets_per_s"), "logging is never free");
    }

    @ParameterizedTest
    @ValueSource(strings = {"aa-poll", "allreduce"})
    void sameSeedSameRow(String policy) {
        Map<String, Object> p = Map.of("processes", 8, "processes_per_node", 4, "accesses_per_process", 30);
        assertEquals(run(PROFILE, policy, new AccessCounterWorkload(), p, 9),
                run(PROFILE, policy, new AccessCounterWorkload(), p, 9));
    }

    @ParameterizedTest
    @ValueSource(strings = {"pin-all", "am", "no-ft"})
    void counterRefusesPoliciesWithoutACountingScheme(String policy) {
        PolicyRefusal e = assertThrows(PolicyRefusal.class, () -> run(PROFILE, policy, new AccessCounterWorkload(),
                Map.of("processes", 4, "processes_per_node", 2), 1));
        assertTrue(e.getMessage().contains("runs under: aa-int, aa-poll"), e.getMessage());
    }
}
