package org.pagefabric.sim.stat;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.Simulator;

class TimeWeightedAverageTest {
    private long clock;

    @Test
    void averageOfAPiecewiseConstantLevel() {
        clock = 100; // starts when declared, not at 0
        TimeWeightedAverage q = new TimeWeightedAverage("q", "entries", "depth", () -> clock);
        assertEquals(0, q.average(), "no time has passed: the current level");
        clock = 110;
        q.set(4);
        assertEquals(0, q.average(), "0 held for 10 ps, 4 for no time yet");
        clock = 130;
        q.set(1);
        clock = 160;
        q.add(2);
        assertEquals(3, q.level());
        clock = 200;
        // 0 for 10, 4 for 20, 1 for 30, 3 for 40 over 100 ps.
        assertEquals((0 * 10 + 4 * 20 + 1 * 30 + 3 * 40) / 100.0, q.average(), 1e-12);
        assertEquals(4, q.max());
        q.add(-3);
        assertEquals(0, q.level());
        assertEquals(4, q.max());
        clock = 300;
        assertEquals((80 + 30 + 120) / 200.0, q.average(), 1e-12);
    }

    @Test
    void resetRestartsTheAverageAndKeepsTheLevel() {
        clock = 0;
        TimeWeightedAverage q = new TimeWeightedAverage("q", "entries", "depth", () -> clock);
        q.set(10);
        clock = 50;
        q.set(2);
        clock = 100;
        q.reset();
        assertEquals(2, q.level());
        assertEquals(2, q.max(), "after reset the maximum is the level held");
        assertEquals(2, q.average());
        clock = 150;
        q.set(6);
        clock = 200;
        assertEquals((2 * 50 + 6 * 50) / 100.0, q.average(), 1e-12);
        assertEquals(6, q.max());
        assertEquals(java.util.List.of("average", "max", "level"),
                q.values().stream().map(Statistic.Value::field).toList());
        assertEquals(4.0, q.values().get(0).value(), 1e-12);
    }

    @Test
    void followsTheSimulatorsVirtualClock() {
        Simulator sim = new Simulator(1);
        TimeWeightedAverage pinned = sim.statistics().level("mr.pinned", "bytes", "pinned bytes");
        sim.schedule(1_000, Band.HARDWARE, (t, a) -> pinned.add(4096), 0, 0);
        sim.schedule(3_000, Band.HARDWARE, (t, a) -> pinned.add(8192), 0, 0);
        sim.schedule(6_000, Band.HARDWARE, (t, a) -> pinned.set(0), 0, 0);
        sim.schedule(10_000, Band.OBSERVER, (t, a) -> { }, 0, 0);
        sim.run();
        assertEquals(10_000, sim.now());
        double expected = (4096.0 * 2_000 + 12288.0 * 3_000) / 10_000;
        assertEquals(expected, pinned.average(), 1e-9);
        assertEquals(12288, pinned.max());
    }

    @Test
    void hugeAreasDoNotOverflow() {
        clock = 0;
        TimeWeightedAverage q = new TimeWeightedAverage("q", "bytes", "d", () -> clock);
        q.set(1L << 40);
        clock = 1L << 40; // level × time is 2^80, beyond a long
        assertEquals(Math.pow(2, 40), q.average(), 1);
    }
}
