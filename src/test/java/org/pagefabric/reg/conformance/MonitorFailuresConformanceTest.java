package org.pagefabric.reg.conformance;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.config.Profile;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.ThreadedFreeWorkload;
import org.pagefabric.workload.WorkloadRegistry;

/**
 * The known failure modes of the pin-down cache's monitors, on {@code threaded-free} (an
 * application thread frees while a progress thread registers): each hazard, switched on, is
 * detected every time it strikes (a lost invalidation is a transfer that fails the data check;
 * the userfaultfd deadlock ends the run with a reason naming the waiters) and, switched off, every
 * seed verifies; the monitors without the hazard verify either way.
 */
class MonitorFailuresConformanceTest {
    private static final List<String> MONITORS = List.of("cache-hooks", "cache-mmu", "cache-uffd", "cache-kdreg2");
    private static final long SEEDS = 8;

    static Stream<Arguments> monitorsAndSeeds() {
        return MONITORS.stream().flatMap(m -> LongStream.rangeClosed(1, SEEDS).mapToObj(s -> Arguments.of(m, s)));
    }

    static Stream<Long> seeds() {
        return LongStream.rangeClosed(1, SEEDS).boxed();
    }

    private static Map<String, Object> run(String policy, String freedBy, Map<String, String> hazards, long seed) {
        Profile p = Conformance.profileFor(PolicyRegistry.standard().descriptor(policy)).withOverrides(hazards, "test");
        Map<String, Object> params = new HashMap<>();
        params.put("size_B", 256 * 1024);
        params.put("iterations", 12);
        params.put(ThreadedFreeWorkload.FREED_BY, freedBy);
        return PointRun.run(p, policy, WorkloadRegistry.standard().byName("threaded-free"), params, seed);
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("monitorsAndSeeds")
    void withTheHazardsOffEveryMonitorSeesAFreeByAnotherThread(String policy, long seed) {
        for (String freedBy : List.of("app", "library")) {
            Map<String, Object> row = run(policy, freedBy, Map.of(), seed);
            assertEquals(true, row.get("verified"), policy + " freed_by=" + freedBy + ": " + row.get("reason"));
            assertEquals(0L, row.get(ThreadedFreeWorkload.LOST), policy);
        }
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void unsynchronisedHooksLoseInvalidationsAndEveryLossIsAWrongTransfer(long seed) {
        Map<String, Object> row = run("cache-hooks", "app", Map.of("cache.hooks.unsynchronised", "true"), seed);
        long lost = (Long) row.get(ThreadedFreeWorkload.LOST);
        long windows = (Long) row.get(ThreadedFreeWorkload.RACE_WINDOWS);
        assertEquals(lost, row.get(ThreadedFreeWorkload.CORRUPTED), "every lost invalidation is caught by the data check");
        assertEquals(lost == 0, row.get("verified"), String.valueOf(row.get("reason")));
        assertTrue(lost <= windows, lost + " lost in " + windows + " windows");
    }

    @Test
    void theRaceStrikesOnSomeSeedsAndItsWindowsOpenUnderTheSerialisedHooksToo() {
        long lost = 0;
        long windows = 0;
        for (long seed = 1; seed <= SEEDS; seed++) {
            lost += (Long) run("cache-hooks", "app", Map.of("cache.hooks.unsynchronised", "true"), seed)
                    .get(ThreadedFreeWorkload.LOST);
            windows += (Long) run("cache-hooks", "app", Map.of(), seed).get(ThreadedFreeWorkload.RACE_WINDOWS);
        }
        assertTrue(lost > 0, "no invalidation lost over " + SEEDS + " seeds");
        assertTrue(windows > 0, "no race window over " + SEEDS + " seeds");
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void aFreeUnderTheCacheLockDeadlocksTheUffdReaderAndTheRunSaysWho(long seed) {
        Map<String, Object> row = run("cache-uffd", "library", Map.of("cache.uffd.free_under_lock", "true"), seed);
        assertEquals(false, row.get("verified"));
        String reason = String.valueOf(row.get("reason"));
        assertTrue(reason.startsWith("deadlock at "), reason);
        assertTrue(reason.contains("rank0-uffd-reader on node0.rank0.mr-cache.lock, held by node0.rank0-progress"), reason);
        assertTrue(reason.contains("rank0-progress on the UNMAP event"), reason);
    }

    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("monitorsAndSeeds")
    void theHazardsOfOneMonitorLeaveTheOthersCorrect(String policy, long seed) {
        Map<String, String> both = Map.of("cache.hooks.unsynchronised", "true", "cache.uffd.free_under_lock", "true");
        if (!policy.equals("cache-hooks")) {
            assertEquals(true, run(policy, "app", both, seed).get("verified"), policy);
        }
        if (!policy.equals("cache-uffd")) {
            assertEquals(true, run(policy, "library", both, seed).get("verified"), policy);
        }
    }
}
