package org.pagefabric.workload;

import java.util.Map;

/** Ordinary least squares line through measured points, for cost fits (base + per-unit). */
final class LeastSquares {
    private LeastSquares() {
    }

    /**
     * The line {@code y = a + b x} closest to the points in the least squares sense.
     *
     * @param points y by x, at least two distinct x values
     * @return {@code {a, b}}: intercept and slope
     * @throws IllegalArgumentException with fewer than two distinct x values
     */
    static double[] line(Map<Integer, Double> points) {
        int n = points.size();
        double sx = 0;
        double sy = 0;
        for (Map.Entry<Integer, Double> e : points.entrySet()) {
            sx += e.getKey();
            sy += e.getValue();
        }
        double mx = sx / n;
        double my = sy / n;
        double sxx = 0;
        double sxy = 0;
        for (Map.Entry<Integer, Double> e : points.entrySet()) {
            double dx = e.getKey() - mx;
            sxx += dx * dx;
            sxy += dx * (e.getValue() - my);
        }
        if (n < 2 || sxx == 0) {
            throw new IllegalArgumentException("a line needs at least two distinct x values, not " + points.keySet());
        }
        double slope = sxy / sxx;
        return new double[] {my - slope * mx, slope};
    }
}
