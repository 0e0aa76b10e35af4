package org.pagefabric.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.pagefabric.config.ProfileRegistry;

class DmaBufMovesWorkloadTest {
    private static final int ITERATIONS = 8;

    private static Map<String, Object> run(String policy, long every) {
        return PointRun.run(ProfileRegistry.load("default"), policy, WorkloadRegistry.standard().byName("dmabuf-moves"),
                Map.of("size_B", 64 * 1024, "iterations", ITERATIONS, DmaBufMovesWorkload.MOVE_EVERY, every), 5);
    }

    @Test
    void aPinnedBufferCannotBeMovedAndCostsNothingMore() {
        Map<String, Object> moved = run("pin-all", 1);
        assertEquals(0L, moved.get(DmaBufMovesWorkload.MOVES));
        assertEquals((long) ITERATIONS, moved.get(DmaBufMovesWorkload.MOVES_BLOCKED));
        assertEquals(run("pin-all", 0).get("latency_us"), moved.get("latency_us"));
    }

    @Test
    void aDynamicAttachmentFollowsEveryMoveAndPaysItsReMapOnTheNextTransfer() {
        Map<String, Object> every = run("odp-explicit", 1);
        Map<String, Object> never = run("odp-explicit", 0);
        Map<String, Object> fourth = run("odp-explicit", 4);
        assertEquals(true, every.get("verified"));
        assertEquals((long) ITERATIONS, every.get(DmaBufMovesWorkload.MOVES));
        assertEquals((long) ITERATIONS / 4, fourth.get(DmaBufMovesWorkload.MOVES));
        double e = (double) every.get("latency_us");
        double f = (double) fourth.get("latency_us");
        double n = (double) never.get("latency_us");
        assertTrue(e > f && f > n, e + " > " + f + " > " + n);
        assertTrue((double) every.get(DmaBufMovesWorkload.MOVE_US) > 0);
    }
}
