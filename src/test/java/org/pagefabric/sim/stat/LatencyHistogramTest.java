package org.pagefabric.sim.stat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.sim.Time;

class LatencyHistogramTest {
    /** Three significant digits (bucket width at most v/1024), and nothing finer than 1 ns. */
    private static long tolerance(long exact) {
        return exact / 500 + Time.NS;
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3})
    void percentilesMatchExactValuesWithinPrecision(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        LatencyHistogram h = new LatencyHistogram("rtt", "round trips");
        int n = 50_000;
        long[] xs = new long[n];
        double sum = 0;
        for (int i = 0; i < n; i++) {
            // Log-uniform from 100 ps to 10 ms: spans the whole range of interest.
            xs[i] = (long) Math.exp(Math.log(100) + rnd.nextDouble() * (Math.log(10 * Time.MS) - Math.log(100)));
            sum += xs[i];
            h.record(xs[i]);
        }
        Arrays.sort(xs);
        assertEquals(n, h.count());
        for (double p : new double[] {1, 10, 50, 90, 99, 99.9, 100}) {
            long exact = xs[(int) Math.ceil(p / 100 * n) - 1];
            long got = h.percentile(p);
            assertTrue(Math.abs(got - exact) <= tolerance(exact), "p" + p + ": " + got + " vs exact " + exact);
        }
        assertEquals(sum / n, h.mean(), sum / n * 0.002);
        assertTrue(Math.abs(h.min() - xs[0]) <= tolerance(xs[0]), "min " + h.min());
        assertTrue(Math.abs(h.max() - xs[n - 1]) <= tolerance(xs[n - 1]), "max " + h.max());
    }

    @Test
    void knownSmallDistribution() {
        LatencyHistogram h = new LatencyHistogram("lat", "d");
        for (int i = 1; i <= 100; i++) {
            h.record(i * Time.US);
        }
        assertEquals(50 * Time.US, h.percentile(50), tolerance(50 * Time.US));
        assertEquals(99 * Time.US, h.percentile(99), tolerance(99 * Time.US));
        assertEquals(50.5 * Time.US, h.mean(), 50.5 * Time.US * 0.002);
        List<String> fields = h.values().stream().map(Statistic.Value::field).toList();
        assertEquals(List.of("count", "mean", "min", "p50", "p99", "max"), fields);
        assertEquals(100, h.values().get(0).value());
        assertEquals("ps", h.unit());
    }

    @Test
    void emptyNegativeAndReset() {
        LatencyHistogram h = new LatencyHistogram("lat", "d");
        assertEquals(0, h.count());
        assertEquals(0, h.mean());
        assertEquals(0, h.min());
        assertEquals(0, h.max());
        assertThrows(IllegalArgumentException.class, () -> h.record(-1));
        assertEquals(0, h.count(), "a refused sample is not counted");
        h.record(0);
        h.record(400); // below the 1 ns resolution
        h.record(5 * Time.S); // far beyond the initial range: the histogram resizes
        assertEquals(3, h.count());
        assertTrue(h.min() < Time.NS);
        assertEquals(5 * Time.S, h.max(), tolerance(5 * Time.S));
        h.reset();
        assertEquals(0, h.count());
        h.record(7 * Time.NS);
        assertEquals(7 * Time.NS, h.percentile(50), tolerance(7 * Time.NS));
    }

    @Test
    void zerosCountedAsideReadAsRecordedOnes() {
        SplittableRandom rnd = new SplittableRandom(11);
        LatencyHistogram h = new LatencyHistogram("lat", "d");
        org.HdrHistogram.Histogram plain = new org.HdrHistogram.Histogram(1_000, 2_000, 3);
        plain.setAutoResize(true);
        for (int i = 0; i < 20_000; i++) {
            long v = rnd.nextInt(3) == 0 ? 0 : rnd.nextLong(10 * Time.US);
            h.record(v);
            plain.recordValue(v);
            if (i % 997 == 0) {
                // reads in the middle settle the zeros; recording goes on afterwards
                assertEquals(plain.getTotalCount(), h.count());
                assertEquals(plain.getMinValue(), h.min());
            }
        }
        assertEquals(plain.getTotalCount(), h.count());
        assertEquals(plain.getMean(), h.mean());
        assertEquals(plain.getMinValue(), h.min());
        assertEquals(plain.getMaxValue(), h.max());
        for (double p : new double[] {1, 30, 34, 50, 99}) {
            assertEquals(plain.getValueAtPercentile(p), h.percentile(p), "p" + p);
        }
        LatencyHistogram zeros = new LatencyHistogram("z", "d");
        zeros.record(0);
        zeros.record(0);
        assertEquals(2, zeros.count());
        assertEquals(0, zeros.max());
        zeros.reset();
        zeros.record(0);
        assertEquals(1, zeros.count(), "reset drops the zeros counted aside");
    }
}
