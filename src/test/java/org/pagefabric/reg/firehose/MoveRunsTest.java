package org.pagefabric.reg.firehose;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Move requests carry runs of buckets that decode to what was encoded. */
class MoveRunsTest {
    @Test
    void consecutiveBucketsBecomeOneRun() {
        long[] out = new long[8];
        int n = MoveRuns.append(new int[] {7, 8, 9, 20, 22, 23}, 6, true, out, 0);
        assertEquals(3, n);
        assertEquals(7, MoveRuns.first(out[0]));
        assertEquals(3, MoveRuns.count(out[0]));
        assertEquals(20, MoveRuns.first(out[1]));
        assertEquals(1, MoveRuns.count(out[1]));
        assertEquals(22, MoveRuns.first(out[2]));
        assertEquals(2, MoveRuns.count(out[2]));
        for (int i = 0; i < n; i++) {
            assertTrue(MoveRuns.isRelease(out[i]));
        }
        n = MoveRuns.append(new int[] {5}, 1, false, out, n);
        assertEquals(4, n);
        assertFalse(MoveRuns.isRelease(out[3]));
        assertEquals(5, MoveRuns.first(out[3]));
    }

    @Test
    void largeBucketNumbersSurvive() {
        long run = MoveRuns.run(Integer.MAX_VALUE - 1, MoveRuns.MAX_COUNT, true);
        assertEquals(Integer.MAX_VALUE - 1, MoveRuns.first(run));
        assertEquals(MoveRuns.MAX_COUNT, MoveRuns.count(run));
        assertTrue(MoveRuns.isRelease(run));
        assertEquals(0, MoveRuns.count(0), "a zero argument is no run");
        assertThrows(IllegalArgumentException.class, () -> MoveRuns.run(0, 0, false));
    }
}
