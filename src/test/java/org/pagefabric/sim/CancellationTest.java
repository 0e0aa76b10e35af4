package org.pagefabric.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.LongPredicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Cancellation through handles: pending, repeated, stale, from handlers, and en masse. */
class CancellationTest {
    private final Simulator sim = new Simulator(1);
    private final EventLog log = new EventLog(sim);

    @Test
    void cancellingAPendingEventPreventsItFromRunning() {
        long a = sim.schedule(10, log.probe("a"), 0, 0);
        long b = sim.schedule(20, log.probe("b"), 0, 0);
        long c = sim.schedule(0, Band.KERNEL, log.probe("c"), 0, 0);
        assertNotEquals(Simulator.NO_EVENT, a);
        assertTrue(sim.isPending(a));
        assertEquals(3, sim.pendingEvents());
        assertTrue(sim.cancel(a));
        assertTrue(sim.cancel(c), "a zero-delay event can be cancelled too");
        assertFalse(sim.isPending(a));
        assertFalse(sim.isPending(c));
        assertTrue(sim.isPending(b));
        assertEquals(1, sim.pendingEvents());
        sim.run();
        assertEquals(List.of("b@20"), log.entries);
        assertEquals(1, sim.eventsExecuted());
    }

    @Test
    void cancellingTwiceReturnsFalseTheSecondTime() {
        long a = sim.schedule(10, log.probe("a"), 0, 0);
        assertTrue(sim.cancel(a));
        assertFalse(sim.cancel(a));
        assertEquals(0, sim.pendingEvents());
        sim.run();
        assertEquals(List.of(), log.entries);
    }

    @Test
    void invalidHandlesAreHarmless() {
        long a = sim.schedule(10, log.probe("a"), 0, 0);
        for (long h : new long[] {Simulator.NO_EVENT, -1L, 1L, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 40,
                (1L << 32) | 0xFFFF_FFF0L, a + (1L << 32)}) {
            assertFalse(sim.isPending(h), "isPending(" + h + ")");
            assertFalse(sim.cancel(h), "cancel(" + h + ")");
        }
        sim.run();
        assertEquals(List.of("a@10"), log.entries);
    }

    @Test
    void cancellingAnEventThatRanReturnsFalse() {
        long a = sim.schedule(10, log.probe("a"), 0, 0);
        sim.run();
        assertFalse(sim.isPending(a));
        assertFalse(sim.cancel(a));
    }

    @Test
    void staleHandlesNeverCancelTheEventsThatReusedTheirStorage() {
        // Many rounds of "run some events, schedule new ones, cancel every old handle": whatever
        // storage the new events reuse, an old handle must not reach them.
        List<Long> stale = new ArrayList<>();
        int expectedRuns = 0;
        for (int round = 0; round < 50; round++) {
            List<Long> fresh = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                fresh.add(sim.schedule(1 + i % 3, log.probe("r" + round + "." + i), 0, 0));
            }
            for (long h : stale) {
                assertFalse(sim.cancel(h), "stale handle cancelled a new event in round " + round);
                assertFalse(sim.isPending(h));
            }
            for (long h : fresh) {
                assertTrue(sim.isPending(h));
            }
            // Cancel some of the fresh ones: their handles go stale too.
            for (int i = 0; i < fresh.size(); i += 4) {
                assertTrue(sim.cancel(fresh.get(i)));
            }
            expectedRuns += 15;
            assertEquals(20 - 5, sim.pendingEvents());
            sim.run();
            assertEquals(expectedRuns, log.entries.size());
            stale.addAll(fresh);
        }
    }

    @Test
    void handlerCanCancelHeapAndZeroDelayEventsDueAtTheSameTime() {
        long[] h = new long[4];
        sim.schedule(10, Band.CONTROL, log.probe("first", () -> {
            h[2] = sim.schedule(0, Band.HARDWARE, log.probe("zero-cancelled"), 0, 0);
            h[3] = sim.schedule(0, Band.HARDWARE, log.probe("zero-kept", () -> {
                // Cancels a heap event due now in a later band.
                assertTrue(sim.cancel(h[1]));
            }), 0, 0);
            assertTrue(sim.cancel(h[2]));
            assertTrue(sim.cancel(h[0]));
        }), 0, 0);
        h[0] = sim.schedule(10, Band.HARDWARE, log.probe("heap-cancelled"), 0, 0);
        h[1] = sim.schedule(10, Band.APPLICATION, log.probe("heap-cancelled-later"), 0, 0);
        sim.schedule(10, Band.TIMEOUT, log.probe("last"), 0, 0);
        sim.run();
        assertEquals(List.of("first", "zero-kept", "last"), log.labels());
        assertEquals(0, sim.pendingEvents());
    }

    @Test
    void zeroDelayEventCanCancelTheNextZeroDelayEvent() {
        long[] h = new long[3];
        sim.schedule(5, log.probe("root", () -> {
            h[0] = sim.schedule(0, log.probe("z0", () -> assertTrue(sim.cancel(h[1]))), 0, 0);
            h[1] = sim.schedule(0, log.probe("z1"), 0, 0);
            h[2] = sim.schedule(0, log.probe("z2", () -> assertFalse(sim.cancel(h[1]))), 0, 0);
        }), 0, 0);
        sim.run();
        assertEquals(List.of("root", "z0", "z2"), log.labels());
    }

    @Test
    void anEventCannotCancelItselfWhileRunningButCanCancelAndRescheduleOthers() {
        long[] h = new long[2];
        h[0] = sim.schedule(10, log.probe("self", () -> {
            assertFalse(sim.isPending(h[0]), "a running event is no longer pending");
            assertFalse(sim.cancel(h[0]));
            // Retransmission-timer pattern: cancel the armed timer and arm a new one.
            assertTrue(sim.cancel(h[1]));
            h[1] = sim.schedule(50, Band.TIMEOUT, log.probe("timer2"), 0, 0);
        }), 0, 0);
        h[1] = sim.schedule(40, Band.TIMEOUT, log.probe("timer1"), 0, 0);
        sim.run();
        assertEquals(List.of("self@10", "timer2@60"), log.entries);
    }

    /** A future event set that counts compactions, to check that the test below exercises one. */
    static final class CountingHeap implements FutureEventSet {
        final QuaternaryHeap inner = new QuaternaryHeap(16);
        int compactions;

        @Override public void add(long time, long key) { inner.add(time, key); }
        @Override public int size() { return inner.size(); }
        @Override public long minTime() { return inner.minTime(); }
        @Override public long minKey() { return inner.minKey(); }
        @Override public void removeMin() { inner.removeMin(); }
        @Override public void replaceMin(long time, long key) { inner.replaceMin(time, key); }
        @Override public void clear() { inner.clear(); }

        @Override
        public void removeIf(LongPredicate dead) {
            compactions++;
            inner.removeIf(dead);
        }
    }

    record Timer(long time, int band, int seq) {
    }

    /**
     * 100k timers, 90% cancelled before the run (from outside) or, in the second mode, by
     * events during the run: the survivors must still run in exact (time, band, seq) order.
     */
    @ParameterizedTest(name = "cancel during run: {0}")
    @ValueSource(booleans = {false, true})
    void massCancellationKeepsTheSurvivorsInExactOrder(boolean duringRun) {
        CountingHeap heap = new CountingHeap();
        Simulator s = new Simulator(7, heap, 16);
        SplittableRandom rnd = new SplittableRandom(2024);
        int n = 100_000;
        long[] handles = new long[n];
        Timer[] timers = new Timer[n];
        List<Timer> ran = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            // Few distinct times so that ties by band and sequence are frequent.
            long time = 1_000 + rnd.nextLong(5_000);
            int band = rnd.nextInt(Band.COUNT);
            Timer t = new Timer(time, band, i);
            timers[i] = t;
            handles[i] = s.scheduleAt(time, band, (type, arg) -> {
                assertEquals(t.time(), s.now());
                ran.add(t);
            }, 0, i);
        }
        boolean[] cancelled = new boolean[n];
        List<Integer> victims = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (rnd.nextInt(10) != 0) {
                victims.add(i);
                cancelled[i] = true;
            }
        }
        if (duringRun) {
            // Cancelled by ten control events spread over the run; each victim goes to a random
            // one of those that run before it is due, so every cancellation hits a pending
            // timer and the dead entries pile up throughout the heap.
            List<List<Integer>> parts = new ArrayList<>();
            for (int k = 0; k < 10; k++) {
                parts.add(new ArrayList<>());
            }
            for (int v : victims) {
                int eligible = (int) Math.min(10, (timers[v].time() - 1_000) / 500 + 1);
                parts.get(rnd.nextInt(eligible)).add(v);
            }
            for (int k = 0; k < 10; k++) {
                List<Integer> part = parts.get(k);
                s.scheduleAt(999 + 500L * k, Band.CONTROL, (type, arg) -> {
                    for (int v : part) {
                        assertTrue(s.cancel(handles[v]));
                    }
                }, 0, 0);
            }
        } else {
            for (int v : victims) {
                assertTrue(s.cancel(handles[v]));
            }
            assertEquals(n - victims.size(), s.pendingEvents());
        }
        s.run();

        List<Timer> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (!cancelled[i]) {
                expected.add(timers[i]);
            }
        }
        expected.sort(Comparator.comparingLong(Timer::time).thenComparingInt(Timer::band).thenComparingInt(Timer::seq));
        assertEquals(expected.size(), ran.size());
        assertEquals(expected, ran);
        assertEquals(0, s.pendingEvents());
        for (int v : victims) {
            assertFalse(s.cancel(handles[v]));
        }
        // Guard on the test itself: with 90% dead entries the kernel is expected to compact.
        assertTrue(heap.compactions > 0, "the test no longer exercises compaction; enlarge it");
    }
}
