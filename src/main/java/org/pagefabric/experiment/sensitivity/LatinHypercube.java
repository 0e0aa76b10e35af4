package org.pagefabric.experiment.sensitivity;

import java.util.SplittableRandom;

/**
 * A Latin hypercube over the unit cube: {@code n} samples in {@code d} dimensions such that, in
 * every dimension, each of the {@code n} equal strata of [0, 1) holds exactly one sample. So a
 * handful of joint runs still spreads every parameter over its whole range, which plain random
 * sampling does not promise. The samples are a pure function of the seed.
 */
public final class LatinHypercube {
    private LatinHypercube() {
    }

    /**
     * The samples, {@code [sample][dimension]}, each coordinate in [0, 1).
     *
     * @param n    how many samples (the strata per dimension), at least 1
     * @param d    how many dimensions, at least 0
     * @param seed the seed: the same seed gives the same samples
     */
    public static double[][] sample(int n, int d, long seed) {
        if (n < 1 || d < 0) {
            throw new IllegalArgumentException("a Latin hypercube needs n >= 1 samples and d >= 0 dimensions, not n = "
                    + n + ", d = " + d);
        }
        double[][] out = new double[n][d];
        SplittableRandom root = new SplittableRandom(seed);
        for (int j = 0; j < d; j++) {
            // one stream per dimension, so adding a dimension leaves the earlier columns as they were
            SplittableRandom r = root.split();
            int[] strata = new int[n];
            for (int i = 0; i < n; i++) {
                strata[i] = i;
            }
            for (int i = n - 1; i > 0; i--) {
                int k = r.nextInt(i + 1);
                int t = strata[i];
                strata[i] = strata[k];
                strata[k] = t;
            }
            for (int i = 0; i < n; i++) {
                out[i][j] = (strata[i] + r.nextDouble()) / n;
            }
        }
        return out;
    }
}
