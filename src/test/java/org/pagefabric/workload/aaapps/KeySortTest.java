package org.pagefabric.workload.aaapps;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The bucketed sort against {@link Arrays#sort(long[])}: uniform keys as the sort application
 * draws them, narrow and wide ranges, negative keys, the whole signed range, many duplicates,
 * all keys equal, and sizes on both sides of the plain-sort threshold; one sorter reused across
 * arrays of different sizes, as the input's maker reuses it.
 */
class KeySortTest {
    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void sortsExactlyAsArraysSortDoes(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        KeySort sorter = new KeySort();
        for (int trial = 0; trial < 40; trial++) {
            int n = switch (trial % 4) {
                case 0 -> rnd.nextInt(5000);
                case 1 -> 4000 + rnd.nextInt(200);
                default -> 1 + rnd.nextInt(300_000);
            };
            long[] a = new long[n];
            int kind = trial % 7;
            for (int i = 0; i < n; i++) {
                a[i] = switch (kind) {
                    case 0 -> rnd.nextLong(1L << 62);
                    case 1 -> rnd.nextLong(); // the whole signed range
                    case 2 -> -rnd.nextLong(1_000_000);
                    case 3 -> rnd.nextLong(50); // many duplicates
                    case 4 -> 42;
                    case 5 -> rnd.nextBoolean() ? Long.MIN_VALUE : Long.MAX_VALUE;
                    default -> 1_000_000_000L + rnd.nextLong(3_000);
                };
            }
            long[] expected = a.clone();
            Arrays.sort(expected);
            sorter.sort(a);
            assertArrayEquals(expected, a, "trial " + trial + " n " + n + " kind " + kind);
        }
    }
}
