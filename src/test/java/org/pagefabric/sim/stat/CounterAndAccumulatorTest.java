package org.pagefabric.sim.stat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CounterAndAccumulatorTest {

    @Test
    void counterCountsAndRefusesToGoDown() {
        Counter c = new Counter("nic.drops", "packets", "dropped packets");
        assertEquals(0, c.value());
        c.increment();
        c.increment();
        c.add(40);
        c.add(0);
        assertEquals(42, c.value());
        assertThrows(IllegalArgumentException.class, () -> c.add(-1));
        assertEquals(42, c.value(), "a refused add changes nothing");
        assertEquals(List.of(new Statistic.Value("nic.drops", "count", 42, "packets")), c.values());
        assertEquals("nic.drops", c.name());
        assertEquals("packets", c.unit());
        assertEquals("dropped packets", c.description());
        c.reset();
        assertEquals(0, c.value());
    }

    @Test
    void emptyAndSingleSampleAccumulator() {
        Accumulator a = new Accumulator("x", "ns", "d");
        assertEquals(0, a.count());
        assertEquals(0, a.mean());
        assertEquals(0, a.stddev());
        assertEquals(0, a.min());
        assertEquals(0, a.max());
        assertEquals(0, a.sum());
        a.record(-3.5);
        assertEquals(1, a.count());
        assertEquals(-3.5, a.mean());
        assertEquals(0, a.stddev(), "one sample has no sample standard deviation");
        assertEquals(-3.5, a.min());
        assertEquals(-3.5, a.max(), "a negative-only maximum is not clamped at 0");
    }

    @Test
    void smallKnownSample() {
        Accumulator a = new Accumulator("x", "ns", "d");
        for (double v : new double[] {2, 4, 4, 4, 5, 5, 7, 9}) {
            a.record(v);
        }
        assertEquals(8, a.count());
        assertEquals(40, a.sum());
        assertEquals(5, a.mean());
        // Sum of squared deviations is 32; sample variance 32 / 7.
        assertEquals(Math.sqrt(32.0 / 7), a.stddev(), 1e-12);
        assertEquals(2, a.min());
        assertEquals(9, a.max());
        assertEquals(List.of("count", "sum", "mean", "stddev", "min", "max"),
                a.values().stream().map(Statistic.Value::field).toList());
        assertEquals(List.of(8.0, 40.0, 5.0, Math.sqrt(32.0 / 7), 2.0, 9.0),
                a.values().stream().map(Statistic.Value::value).toList());
        assertEquals("count", a.values().get(0).unit());
        assertEquals("ns", a.values().get(2).unit());
    }

    /** Mean and standard deviation against a direct two-pass computation, including a large offset. */
    @ParameterizedTest(name = "offset {0}")
    @ValueSource(doubles = {0, 1e9, -5e12})
    void meanAndStddevMatchDirectComputation(double offset) {
        SplittableRandom rnd = new SplittableRandom((long) offset + 17);
        int n = 100_000;
        double[] xs = new double[n];
        Accumulator a = new Accumulator("x", "ps", "d");
        for (int i = 0; i < n; i++) {
            xs[i] = offset + rnd.nextDouble() * 100 - 30;
            a.record(xs[i]);
        }
        // Reference: two passes over the values minus the offset. The subtraction is exact
        // (Sterbenz), so the reference does not suffer the cancellation a naive sum of
        // 1e5 values of 5e12 would.
        double sum = 0;
        double min = Double.POSITIVE_INFINITY;
        double max = Double.NEGATIVE_INFINITY;
        for (double x : xs) {
            sum += x - offset;
            min = Math.min(min, x);
            max = Math.max(max, x);
        }
        double shiftedMean = sum / n;
        double ss = 0;
        for (double x : xs) {
            double d = (x - offset) - shiftedMean;
            ss += d * d;
        }
        double mean = offset + shiftedMean;
        double sd = Math.sqrt(ss / (n - 1));
        assertEquals(mean, a.mean(), Math.abs(mean) * 1e-12 + 1e-9);
        // Welford's running mean is rounded to the precision of the offset at every step, so
        // its error scales with ulp(offset), not with the offset itself as a naive
        // sum-of-squares would (which at 5e12 would be off by more than the spread).
        assertEquals(sd, a.stddev(), sd * 1e-9 + 16 * Math.ulp(offset));
        // About 28.9 for a uniform of width 100.
        assertEquals(100 / Math.sqrt(12), a.stddev(), 0.5);
        assertEquals(min, a.min());
        assertEquals(max, a.max());
        assertEquals(n, a.count());
        a.reset();
        assertEquals(0, a.count());
        assertEquals(0, a.mean());
        assertEquals(0, a.stddev());
        assertEquals(0, a.max());
        a.record(1);
        a.record(3);
        assertEquals(2, a.mean(), "after reset nothing of the old samples remains");
        assertEquals(Math.sqrt(2), a.stddev(), 1e-12);
        assertEquals(1, a.min());
    }

    @Test
    void repeatedSamplesLeaveEveryFieldAsSingleRecordsDo() {
        java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
        for (int trial = 0; trial < 200; trial++) {
            Accumulator one = new Accumulator("x", "ps", "d");
            Accumulator many = new Accumulator("x", "ps", "d");
            for (int step = 0; step < 20; step++) {
                // runs of zeros first (the one-step case), then anything
                double x = step < 3 || rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(1_000_000);
                int n = rnd.nextInt(50);
                for (int i = 0; i < n; i++) {
                    one.record(x);
                }
                many.recordRepeated(x, n);
                assertEquals(one.count(), many.count());
                for (double[] pair : new double[][] {{one.sum(), many.sum()}, {one.mean(), many.mean()},
                        {one.stddev(), many.stddev()}, {one.min(), many.min()}, {one.max(), many.max()}}) {
                    assertEquals(Double.doubleToRawLongBits(pair[0]), Double.doubleToRawLongBits(pair[1]),
                            "trial " + trial + " step " + step);
                }
            }
        }
    }
}
