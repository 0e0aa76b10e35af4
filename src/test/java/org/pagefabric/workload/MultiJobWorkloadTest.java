package org.pagefabric.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;

/**
 * Jobs sharing two nodes' memory: under pinning a job whose segment does not fit cannot start,
 * under PART every job runs and pays page faults once memory is overcommitted.
 */
class MultiJobWorkloadTest {
    /** 4 MiB nodes with swap, transport retries unbounded as PART's are. */
    private static final Profile SMALL = ProfileRegistry.load("part-forth").withOverrides(Map.of("memory.size", "4MiB",
            "os.swap.size", "16MiB", "transport.retry_limit", "100000"), "test");

    private static Map<String, Object> point(String policy, long jobs) {
        return PointRun.run(SMALL, policy, new MultiJobWorkload(), Map.of("jobs", jobs, "working_set_MiB", 1L,
                "buffer_MiB", 1L, "iterations", 2L), 1);
    }

    @Test
    void jobsThatFitRunWithoutFaultsUnderBothPolicies() {
        for (String policy : new String[] {"pin-all", "part-pio"}) {
            Map<String, Object> row = point(policy, 3);
            assertEquals(true, row.get("verified"), row.toString());
            assertEquals(0.0, row.get("major_faults"), row.toString());
        }
        // pinned over both nodes: one 1 MiB segment per process
        assertEquals(6.0, point("pin-all", 3).get("pinned_MiB"));
    }

    @Test
    void pinningRefusesAJobWhoseSegmentDoesNotFitWithARowNotAnError() {
        Map<String, Object> row = point("pin-all", 5);
        assertEquals(false, row.get("verified"), row.toString());
        assertTrue(String.valueOf(row.get(PointRun.REASON)).contains("ENOMEM"), row.toString());
        assertNull(row.get("job_ms"), row.toString());
        assertEquals(5L, row.get("jobs"));
    }

    @Test
    void partRunsOvercommittedJobsAndTheyPayPageFaults() {
        Map<String, Object> row = point("part-pio", 5);
        assertEquals(true, row.get("verified"), row.toString());
        assertTrue((Double) row.get("major_faults") > 0, row.toString());
        assertTrue((Double) row.get("cpu_fault_ms") > 0, row.toString());
        assertTrue((Double) row.get("job_ms") > (Double) point("part-pio", 3).get("job_ms"), row.toString());
    }

    @Test
    void aBufferLargerThanTheWorkingSetIsRefusedByName() {
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> new MultiJobWorkload().resolve(Map.of("working_set_MiB", 1L, "buffer_MiB", 2L)));
        assertTrue(e.getMessage().contains("buffer_MiB"), e.getMessage());
    }
}
