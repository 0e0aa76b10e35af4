package org.pagefabric.workload.aaapps;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The sort's input is made once per seed, process count and size, and is what its parameters say. */
class CoralSortInputTest {
    @Test
    void pointsWithTheSameSeedShareOneInputAndOthersGetTheirOwn() {
        CoralSortWorkload.Input a = CoralSortWorkload.Input.of(8, 10_000, 5);
        assertSame(a, CoralSortWorkload.Input.of(8, 10_000, 5));
        CoralSortWorkload.Input b = CoralSortWorkload.Input.of(8, 10_000, 6);
        assertNotSame(a, b);
        assertEquals(a.processes(), b.processes());
        // a fresh one equals the shared one: sharing changes no key
        CoralSortWorkload.Input again = CoralSortWorkload.Input.of(8, 10_000, 5);
        assertEquals(a.digest(), again.digest());
        for (int r = 0; r < 8; r++) {
            assertArrayEquals(a.keys()[r], again.keys()[r]);
        }
    }

    @Test
    void keysAreSortedPerProcessAndBucketedByRange() {
        CoralSortWorkload.Input in = CoralSortWorkload.Input.of(4, 1001, 9);
        long count = 0;
        for (int r = 0; r < 4; r++) {
            long[] k = in.keys()[r];
            count += k.length;
            for (int i = 1; i < k.length; i++) {
                assertTrue(k[i - 1] <= k[i]);
            }
            long[] d = in.desc()[r];
            assertEquals(0, d[0]);
            assertEquals(k.length, d[4]);
            for (int b = 0; b < 4; b++) {
                for (long i = d[b]; i < d[b + 1]; i++) {
                    assertEquals(b, Math.min(3, k[(int) i] / ((1L << 62) / 4)), "key " + i + " of process " + r);
                }
            }
        }
        assertEquals(1001, count);
    }
}
