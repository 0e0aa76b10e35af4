package org.pagefabric.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Median and spread of a measurement, and the base/per-page split. */
class MeasurementTest {
    @Test
    void medianAndQuartilesInterpolateOrderStatistics() {
        Measurement m = new Measurement("p", "q", "ns", new double[] {5, 1, 4, 2, 3});
        assertEquals(3, m.median());
        assertEquals(2, m.p25());
        assertEquals(4, m.p75());
        assertEquals(1, m.min());
        assertEquals(5, m.max());
        assertEquals(5, m.runs());
        Measurement even = new Measurement("p", "q", "ns", new double[] {10, 40, 20, 30});
        assertEquals(25, even.median());
        assertEquals(17.5, even.p25());
        assertEquals(32.5, even.p75());
    }

    @Test
    void samplesAreCopiedAndAnEmptyMeasurementIsRefused() {
        double[] s = {1, 2, 3};
        Measurement m = new Measurement("p", "q", "ns", s);
        s[1] = 100;
        assertEquals(2, m.median());
        assertThrows(IllegalArgumentException.class, () -> new Measurement("p", "q", "ns", new double[0]));
    }

    @Test
    void twoSizesSeparateBaseAndPerPageCosts() {
        // t(n) = base + 200 n, with a base of 1500 ns in one repetition and 1700 ns in the other
        double[] one = {1700, 1900};
        double[] many = {1500 + 200 * 64, 1700 + 200 * 64};
        assertEquals(200, PerPageFit.perPage(one, many, 64)[0], 1e-9);
        assertEquals(1500, PerPageFit.base(one, many, 64)[0], 1e-9);
        assertEquals(200, PerPageFit.perPage(one, many, 64)[1], 1e-9);
        assertEquals(1700, PerPageFit.base(one, many, 64)[1], 1e-9);
        assertEquals(4096 / 200.0, PerPageFit.gigabytesPerSecond(new double[] {200})[0], 1e-12);
    }

    @Test
    void aPerPageCostBelowTheNoiseIsZeroNotNegative() {
        // mincore: a few ns a page over 64 pages, while the 1-page call varies by hundreds of ns
        double[] one = {900, 700, 1000};
        double[] many = {700, 900, 1100};
        double[] per = PerPageFit.perPage(one, many, 64);
        assertEquals(0, per[0], 0, "the 1-page call's noise, not a page that gives time back");
        assertEquals(200 / 63.0, per[1], 1e-9);
        assertEquals(900, PerPageFit.base(one, many, 64)[0], 1e-9);
        assertTrue(new Measurement("mincore", "per_page", "ns", per).min() >= 0);
    }

    @Test
    void mlockSizeStaysWithinTheMemlockLimit() {
        assertEquals(1024, MlockProbe.pages(Long.MAX_VALUE, 1024));
        assertEquals(1024, MlockProbe.pages(-1, 1024));
        assertEquals(512, MlockProbe.pages(2L << 20, 1024));
        assertEquals(1024, MlockProbe.pages(8L << 20, 1024));
        assertEquals(2, MlockProbe.pages(8192, 1024));
    }

    @Test
    void thpModeIsTheBracketedWord() {
        assertEquals("madvise", HostInfo.parseThpMode("always [madvise] never\n"));
        assertEquals("never", HostInfo.parseThpMode("always madvise [never]"));
        assertEquals(null, HostInfo.parseThpMode("garbage"));
    }
}
