package org.pagefabric.workload.aaapps;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.sim.RandomStream;

/**
 * {@link SortCheck} against what it stands for: every part merged (sorted) and walked end to
 * end, on seeded random parts that are sorted across processes, slightly out of order, empty,
 * missing, short a key or holding a wrong one.
 */
class SortCheckTest {
    /** The check by merging: sort each part, walk the concatenation, count and digest it. */
    private static boolean byMerging(long[][] parts, long count, long digest) {
        long n = 0;
        long d = 0;
        long previous = Long.MIN_VALUE;
        for (long[] part : parts) {
            if (part == null) {
                return false;
            }
            long[] merged = part.clone();
            Arrays.sort(merged);
            for (long k : merged) {
                if (k < previous) {
                    return false;
                }
                previous = k;
                d += RandomStream.mix64(k);
            }
            n += merged.length;
        }
        return n == count && d == digest;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
    void agreesWithMergingEveryPart(long seed) {
        RandomStream rnd = new RandomStream(seed);
        int trues = 0;
        for (int trial = 0; trial < 400; trial++) {
            int processes = 1 + rnd.nextInt(6);
            long range = 1 + rnd.nextLong(50); // small ranges: equal keys at the parts' borders
            long[][] parts = new long[processes][];
            long count = 0;
            long digest = 0;
            for (int p = 0; p < processes; p++) {
                int n = rnd.nextInt(4) == 0 ? 0 : rnd.nextInt(8);
                parts[p] = new long[n];
                for (int i = 0; i < n; i++) {
                    // bucket p holds keys of [p * range, (p + 1) * range], shuffled within the part
                    parts[p][i] = p * range + rnd.nextLong(range + 1) - (rnd.nextInt(10) == 0 ? rnd.nextLong(3) : 0);
                    count++;
                    digest += RandomStream.mix64(parts[p][i]);
                }
            }
            switch (rnd.nextInt(6)) {
                case 0 -> count++;
                case 1 -> digest ^= 1;
                case 2 -> parts[rnd.nextInt(processes)] = null;
                case 3 -> {
                    long[] part = parts[rnd.nextInt(processes)];
                    if (part.length > 0) {
                        part[rnd.nextInt(part.length)] += rnd.nextLong(2 * range + 1) - range;
                    }
                }
                default -> {
                }
            }
            boolean expected = byMerging(parts, count, digest);
            trues += expected ? 1 : 0;
            assertEquals(expected, SortCheck.sortedPermutation(parts, count, digest), "seed " + seed + " trial " + trial
                    + ": " + Arrays.deepToString(parts));
        }
        // both verdicts occur, so the comparison is not trivially one-sided
        assertEquals(true, trues > 20 && trues < 380, trues + " of 400 sorted permutations");
    }
}
