package org.pagefabric.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.param.NicParameters;

class ForkReuseWorkloadTest {
    private static final int ITERATIONS = 4;
    private static final long SIZE = 64 * 1024;

    private static Map<String, Object> run(String policy, String kernel, String dontFork) {
        Profile p = ProfileRegistry.load("default").withOverrides(Map.of("os.fork.pinned_pages", kernel), "test");
        return PointRun.run(p, policy, WorkloadRegistry.standard().byName("fork-reuse"),
                Map.of("size_B", SIZE, "iterations", ITERATIONS, ForkReuseWorkload.DONTFORK, dontFork), 5);
    }

    @Test
    void anOldKernelLeavesPinAllSendingTheChildsBytes() {
        Map<String, Object> row = run("pin-all", "shared-cow", "never");
        assertEquals(false, row.get("verified"));
        assertEquals((long) ITERATIONS, row.get(ForkReuseWorkload.CORRUPTED));
        assertTrue(((String) row.get(PointRun.REASON)).contains("pages the child owns"), row.toString());
    }

    @Test
    void dontForkKeepsPinAllCorrectAndLeavesTheChildWithoutTheBuffer() {
        Map<String, Object> row = run("pin-all", "shared-cow", "auto");
        assertEquals(true, row.get("verified"), row.toString());
        assertEquals((long) ITERATIONS, row.get(ForkReuseWorkload.CHILD_FAULTS));
    }

    @Test
    void theEarlyCopyCostsOnePageCopyPerPinnedPageAtFork() {
        double copy = (double) run("pin-all", "early-copy", "never").get(ForkReuseWorkload.FORK_US);
        double none = (double) run("pin-all", "shared-cow", "auto").get(ForkReuseWorkload.FORK_US);
        // default profile: os.cow_copy.per_page 500 ns; at least the buffer's 16 pages are copied
        assertTrue(copy - none >= SIZE / 4096 * 0.5, copy + " vs " + none);
    }

    @Test
    void aStaleActiveMessageBufferEndsTheRunUnverifiedWithItsCause() {
        // bounce exchanges its keys by active messages, whose pinned buffers diverge like the application's
        Map<String, Object> row = run("bounce", "shared-cow", "never");
        assertEquals(false, row.get("verified"));
        assertTrue(((String) row.get(PointRun.REASON)).contains("named no handler"), row.toString());
    }

    @Test
    void autoMarksOnlyWhereTheKernelDoesNotCopy() {
        assertEquals(0L, run("pin-all", "early-copy", "auto").get(ForkReuseWorkload.CHILD_FAULTS));
        assertEquals((long) ITERATIONS, run("pin-all", "early-copy", "always").get(ForkReuseWorkload.CHILD_FAULTS));
    }

    @Test
    void autoTurnsOnTheRegistrarsForkProtectionOnlyWhereTheKernelSharesPinnedPages() {
        Workload w = WorkloadRegistry.standard().byName("fork-reuse");
        for (String kernel : new String[] {"early-copy", "shared-cow"}) {
            Profile p = ProfileRegistry.load("default").withOverrides(Map.of("os.fork.pinned_pages", kernel), "test");
            for (String choice : new String[] {"never", "auto", "always"}) {
                Profile chosen = w.profile(w.resolve(Map.of(ForkReuseWorkload.DONTFORK, choice)), p);
                boolean expected = choice.equals("always") || choice.equals("auto") && kernel.equals("shared-cow");
                assertEquals(expected, chosen.flag(NicParameters.REGISTER_DONTFORK), kernel + " " + choice);
            }
        }
    }

    @Test
    void odpFollowsTheCopyOnWriteBreakOnAnOldKernel() {
        Map<String, Object> row = run("odp-explicit", "shared-cow", "never");
        assertEquals(true, row.get("verified"), row.toString());
        assertEquals(0L, row.get(ForkReuseWorkload.CHILD_FAULTS));
    }
}
