package org.pagefabric.experiment.sensitivity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** The Latin hypercube: one sample per stratum in every dimension, in [0, 1), a function of the seed. */
class LatinHypercubeTest {
    @Test
    void everyStratumOfEveryDimensionHoldsExactlyOneSample() {
        for (int n : new int[] {1, 2, 7, 50}) {
            double[][] s = LatinHypercube.sample(n, 5, 42);
            assertEquals(n, s.length);
            for (int j = 0; j < 5; j++) {
                int[] hits = new int[n];
                for (double[] row : s) {
                    assertTrue(row[j] >= 0 && row[j] < 1, "coordinate " + row[j]);
                    hits[(int) Math.floor(row[j] * n)]++;
                }
                int[] once = new int[n];
                Arrays.fill(once, 1);
                assertArrayEquals(once, hits, "dimension " + j + " of " + n + " samples: " + Arrays.toString(hits));
            }
        }
    }

    @Test
    void theSameSeedGivesTheSameSamplesAndAnotherSeedOthers() {
        assertTrue(Arrays.deepEquals(LatinHypercube.sample(8, 3, 7), LatinHypercube.sample(8, 3, 7)));
        assertFalse(Arrays.deepEquals(LatinHypercube.sample(8, 3, 7), LatinHypercube.sample(8, 3, 8)));
    }

    @Test
    void addingADimensionLeavesTheEarlierColumnsAsTheyWere() {
        double[][] three = LatinHypercube.sample(6, 3, 5);
        double[][] four = LatinHypercube.sample(6, 4, 5);
        for (int i = 0; i < 6; i++) {
            assertArrayEquals(three[i], Arrays.copyOf(four[i], 3));
        }
    }

    @Test
    void noSamplesOrNegativeDimensionsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> LatinHypercube.sample(0, 2, 1));
        assertThrows(IllegalArgumentException.class, () -> LatinHypercube.sample(2, -1, 1));
        assertEquals(0, LatinHypercube.sample(3, 0, 1)[0].length);
    }
}
