package org.pagefabric.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RunSummaryTest {
    @Test
    void ratesFromCountsAndTimes() {
        RunSummary s = new RunSummary(2_000_000, 3 * Time.S, 500_000_000);
        assertEquals(4e6, s.eventsPerSecond(), 1e-6);
        assertEquals(6.0, s.simulatedSecondsPerWallSecond(), 1e-12);
        RunSummary slow = new RunSummary(10, 250 * Time.NS, 2_000_000_000L);
        assertEquals(5.0, slow.eventsPerSecond(), 1e-12);
        assertEquals(1.25e-7, slow.simulatedSecondsPerWallSecond(), 1e-20);
    }

    @Test
    void zeroWallTimeGivesZeroRatesNotInfinity() {
        RunSummary s = new RunSummary(5, Time.US, 0);
        assertEquals(0, s.eventsPerSecond());
        assertEquals(0, s.simulatedSecondsPerWallSecond());
    }

    @Test
    void simulatorSummaryReportsItsRun() {
        Simulator sim = new Simulator(1);
        assertEquals(new RunSummary(0, 0, 0), sim.summary());
        for (int i = 1; i <= 1_000; i++) {
            sim.schedule(i * Time.NS, (t, a) -> { }, 0, 0);
        }
        sim.runUntil(500 * Time.NS);
        RunSummary half = sim.summary();
        assertEquals(500, half.events());
        assertEquals(500 * Time.NS, half.simulatedPs());
        sim.run();
        RunSummary all = sim.summary();
        assertEquals(1_000, all.events());
        assertEquals(Time.US, all.simulatedPs());
        assertTrue(all.wallNanos() >= half.wallNanos(), "wall time accumulates over runs");
        assertTrue(all.wallNanos() > 0);
        assertEquals(all.events() * 1e9 / all.wallNanos(), all.eventsPerSecond(), 1e-6);
    }
}
