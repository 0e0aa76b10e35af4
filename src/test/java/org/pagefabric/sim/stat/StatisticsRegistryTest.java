package org.pagefabric.sim.stat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatisticsRegistryTest {
    private long clock;
    private final StatisticsRegistry reg = new StatisticsRegistry(() -> clock);

    @Test
    void declaringAgainReturnsTheSameStatistic() {
        Counter c = reg.counter("a.drops", "packets", "d");
        assertSame(c, reg.counter("a.drops", "packets", "d"));
        assertSame(c, reg.get("a.drops"));
        Accumulator acc = reg.accumulator("a.size", "bytes", "d");
        assertSame(acc, reg.accumulator("a.size", "bytes", "d"));
        LatencyHistogram lat = reg.latency("a.rtt", "d");
        assertSame(lat, reg.latency("a.rtt", "d"));
        TimeWeightedAverage lvl = reg.level("a.depth", "entries", "d");
        assertSame(lvl, reg.level("a.depth", "entries", "d"));
        assertNull(reg.get("a.nothing"));
    }

    @Test
    void kindConflictsAreRefused() {
        reg.counter("x", "count", "d");
        reg.latency("y", "d");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> reg.accumulator("x", "u", "d"));
        assertTrue(e.getMessage().contains("'x'") && e.getMessage().contains("Counter"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> reg.latency("x", "d"));
        assertThrows(IllegalArgumentException.class, () -> reg.level("x", "u", "d"));
        assertThrows(IllegalArgumentException.class, () -> reg.counter("y", "u", "d"));
        assertTrue(reg.get("x") instanceof Counter, "the conflict left the original in place");
        assertEquals(2, reg.all().size());
    }

    @Test
    void allAndSnapshotAreInNameOrderWhateverTheDeclarationOrder() {
        reg.counter("node2.nic.drops", "packets", "d").add(3);
        reg.accumulator("node10.size", "bytes", "d").record(8);
        reg.counter("node1.drops", "packets", "d").add(1);
        reg.level("node1.depth", "entries", "d");
        assertEquals(List.of("node1.depth", "node1.drops", "node10.size", "node2.nic.drops"),
                reg.all().stream().map(Statistic::name).toList());
        List<Statistic.Value> snap = reg.snapshot();
        assertEquals(List.of(
                "node1.depth/average", "node1.depth/max", "node1.depth/level",
                "node1.drops/count",
                "node10.size/count", "node10.size/sum", "node10.size/mean", "node10.size/stddev", "node10.size/min",
                "node10.size/max",
                "node2.nic.drops/count"),
                snap.stream().map(v -> v.statistic() + "/" + v.field()).toList());
        assertEquals(3.0, snap.get(snap.size() - 1).value());
        assertThrows(UnsupportedOperationException.class, () -> reg.all().clear());
    }

    @Test
    void resetAllResetsEveryStatistic() {
        Counter c = reg.counter("c", "count", "d");
        Accumulator a = reg.accumulator("a", "u", "d");
        LatencyHistogram l = reg.latency("l", "d");
        TimeWeightedAverage t = reg.level("t", "u", "d");
        c.add(5);
        a.record(2);
        l.record(1_000);
        t.set(7);
        clock = 100;
        reg.resetAll();
        assertEquals(0, c.value());
        assertEquals(0, a.count());
        assertEquals(0, l.count());
        assertEquals(7, t.level());
        clock = 200;
        t.set(1);
        clock = 300;
        assertEquals(4.0, t.average(), 1e-12, "the level average restarts at the reset");
    }
}
