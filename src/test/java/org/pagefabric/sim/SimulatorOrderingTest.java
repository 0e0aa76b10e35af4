package org.pagefabric.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The total event order (time, band, scheduling order) and the run-loop contract. */
class SimulatorOrderingTest {
    private final Simulator sim = new Simulator(1);
    private final EventLog log = new EventLog(sim);

    @Test
    void eventsRunInTimeOrderWithTheClockAtTheirTime() {
        sim.schedule(30, log.probe("c"), 0, 0);
        sim.schedule(10, log.probe("a"), 0, 0);
        sim.scheduleAt(20, Band.HARDWARE, log.probe("b"), 0, 0);
        sim.schedule(Time.US, log.probe("d"), 0, 0);
        sim.run();
        assertEquals(List.of("a@10", "b@20", "c@30", "d@1000000"), log.entries);
        assertEquals(Time.US, sim.now());
        assertEquals(4, sim.eventsExecuted());
        assertEquals(0, sim.pendingEvents());
    }

    @Test
    void tiesAreBrokenByBandThenBySchedulingOrder() {
        sim.schedule(5, Band.APPLICATION, log.probe("app1"), 0, 0);
        sim.schedule(5, Band.HARDWARE, log.probe("hw1"), 0, 0);
        sim.schedule(5, Band.OBSERVER, log.probe("obs1"), 0, 0);
        sim.schedule(5, Band.CONTROL, log.probe("ctl1"), 0, 0);
        sim.schedule(5, Band.HARDWARE, log.probe("hw2"), 0, 0);
        sim.schedule(5, Band.TIMEOUT, log.probe("tmo1"), 0, 0);
        sim.schedule(5, Band.APPLICATION, log.probe("app2"), 0, 0);
        sim.schedule(5, Band.KERNEL, log.probe("krn1"), 0, 0);
        sim.schedule(4, Band.OBSERVER, log.probe("early"), 0, 0);
        sim.run();
        assertEquals(List.of("early", "ctl1", "hw1", "hw2", "krn1", "app1", "app2", "tmo1", "obs1"), log.labels());
    }

    @Test
    void schedulingOrderIsKeptAmongManyEqualKeys() {
        // Enough ties to push the heap through several levels and a growth.
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            sim.schedule(7, Band.KERNEL, log.probe("k" + i), 0, 0);
            expected.add("k" + i);
        }
        sim.run();
        assertEquals(expected, log.labels());
    }

    static Stream<Arguments> bandPairs() {
        return IntStream.range(0, Band.COUNT).boxed()
                .flatMap(h -> IntStream.range(0, Band.COUNT).mapToObj(f -> Arguments.of(h, f)));
    }

    /**
     * At time 10 a trigger (CONTROL, scheduled first, so it runs first) schedules a zero-delay
     * event F in {@code fifoBand}, while H, scheduled earlier for time 10 in {@code heapBand},
     * is still pending. F has the later sequence number, so it runs first only if its band is
     * strictly lower.
     */
    @ParameterizedTest(name = "heap event in {0}, zero-delay event in {1}")
    @MethodSource("bandPairs")
    void zeroDelayEventsInterleaveWithHeapEventsDueNow(int heapBand, int fifoBand) {
        sim.schedule(10, Band.CONTROL, log.probe("T",
                () -> sim.schedule(0, fifoBand, log.probe("F"), 0, 0)), 0, 0);
        sim.schedule(10, heapBand, log.probe("H"), 0, 0);
        sim.run();
        List<String> expected = fifoBand < heapBand ? List.of("T@10", "F@10", "H@10") : List.of("T@10", "H@10", "F@10");
        assertEquals(expected, log.entries);
    }

    /** Same, but the event that schedules the zero-delay one itself came through the FIFO. */
    @ParameterizedTest(name = "heap event in {0}, zero-delay event in {1}, scheduled from a zero-delay event")
    @MethodSource("bandPairs")
    void zeroDelayEventsScheduledByZeroDelayEventsInterleaveWithHeapEvents(int heapBand, int fifoBand) {
        sim.schedule(10, Band.CONTROL, log.probe("T",
                () -> sim.schedule(0, Band.CONTROL, log.probe("T2",
                        () -> sim.schedule(0, fifoBand, log.probe("F"), 0, 0)), 0, 0)), 0, 0);
        sim.schedule(10, heapBand, log.probe("H"), 0, 0);
        sim.run();
        List<String> expected;
        if (heapBand == Band.CONTROL) {
            // H (CONTROL, scheduled before T2) runs before T2.
            expected = List.of("T", "H", "T2", "F");
        } else {
            expected = fifoBand < heapBand ? List.of("T", "T2", "F", "H") : List.of("T", "T2", "H", "F");
        }
        assertEquals(expected, log.labels());
    }

    @Test
    void earlierKernelHeapEventYieldsToLaterZeroDelayHardwareEvent() {
        sim.schedule(10, Band.KERNEL, log.probe("kernel-heap"), 0, 0);
        sim.schedule(10, Band.CONTROL, log.probe("ctl",
                () -> sim.schedule(0, Band.HARDWARE, log.probe("hw-zero"), 0, 0)), 0, 0);
        sim.run();
        assertEquals(List.of("ctl", "hw-zero", "kernel-heap"), log.labels());
    }

    @Test
    void earlierHardwareHeapEventRunsBeforeLaterZeroDelayHardwareEvent() {
        sim.schedule(10, Band.HARDWARE, log.probe("hw-heap"), 0, 0);
        sim.schedule(10, Band.CONTROL, log.probe("ctl",
                () -> sim.schedule(0, Band.HARDWARE, log.probe("hw-zero"), 0, 0)), 0, 0);
        sim.run();
        assertEquals(List.of("ctl", "hw-heap", "hw-zero"), log.labels());
    }

    @Test
    void zeroDelayEventInLowerBandRunsBeforeRemainingHigherBandEvents() {
        sim.schedule(10, Band.KERNEL, log.probe("krn", () -> {
            sim.schedule(0, Band.HARDWARE, log.probe("hw-zero"), 0, 0);
            sim.schedule(0, Band.OBSERVER, log.probe("obs-zero"), 0, 0);
            sim.schedule(0, Band.KERNEL, log.probe("krn-zero"), 0, 0);
        }), 0, 0);
        sim.schedule(10, Band.APPLICATION, log.probe("app", () -> sim.schedule(0, Band.CONTROL,
                log.probe("ctl-zero"), 0, 0)), 0, 0);
        sim.schedule(10, Band.TIMEOUT, log.probe("tmo"), 0, 0);
        sim.schedule(10, Band.KERNEL, log.probe("krn2"), 0, 0);
        sim.schedule(11, Band.CONTROL, log.probe("next"), 0, 0);
        sim.run();
        assertEquals(List.of("krn@10", "hw-zero@10", "krn2@10", "krn-zero@10", "app@10", "ctl-zero@10", "tmo@10",
                "obs-zero@10", "next@11"), log.entries);
    }

    @Test
    void zeroDelayEventsScheduledBeforeRunRunAtTimeZeroInBandOrder() {
        sim.schedule(0, Band.OBSERVER, log.probe("obs"), 0, 0);
        sim.scheduleAt(0, Band.HARDWARE, log.probe("hw"), 0, 0);
        sim.schedule(1, Band.CONTROL, log.probe("later"), 0, 0);
        sim.schedule(0, Band.CONTROL, log.probe("ctl"), 0, 0);
        sim.run();
        assertEquals(List.of("ctl@0", "hw@0", "obs@0", "later@1"), log.entries);
    }

    @Test
    void zeroDelayEventsKeepFifoOrderWhileTheQueueGrowsAndWraps() {
        // 40 events, of which the first 30 each add 3 more while the queue's head has moved:
        // the queue grows past its initial size with its head in the middle.
        List<String> expected = new ArrayList<>();
        sim.schedule(5, log.probe("root", () -> {
            for (int i = 0; i < 40; i++) {
                int fi = i;
                sim.schedule(0, log.probe("F" + i, () -> {
                    if (fi < 30) {
                        for (int j = 0; j < 3; j++) {
                            sim.schedule(0, log.probe("G" + fi + "." + j), 0, 0);
                        }
                    }
                }), 0, 0);
            }
        }), 0, 0);
        expected.add("root");
        for (int i = 0; i < 40; i++) {
            expected.add("F" + i);
        }
        for (int i = 0; i < 30; i++) {
            for (int j = 0; j < 3; j++) {
                expected.add("G" + i + "." + j);
            }
        }
        sim.run();
        assertEquals(expected, log.labels());
    }

    @Test
    void handlerThatSchedulesSeveralFollowUpsKeepsOrder() {
        // The first follow-up may replace the running event in the heap; the others are added.
        sim.schedule(10, log.probe("a", () -> {
            sim.schedule(5, Band.KERNEL, log.probe("a-k15"), 0, 0);
            sim.schedule(3, log.probe("a-h13"), 0, 0);
            sim.schedule(5, Band.HARDWARE, log.probe("a-h15"), 0, 0);
        }), 0, 0);
        sim.schedule(12, log.probe("b"), 0, 0);
        sim.schedule(15, Band.CONTROL, log.probe("c15"), 0, 0);
        sim.run();
        assertEquals(List.of("a@10", "b@12", "a-h13@13", "c15@15", "a-h15@15", "a-k15@15"), log.entries);
    }

    @Test
    void handlerArgumentsAndTracerSeeEveryEvent() {
        List<String> traced = new ArrayList<>();
        sim.setTracer((time, band, handler, type) -> traced.add(time + "/" + Band.name(band) + "/" + type));
        List<String> args = new ArrayList<>();
        EventHandler h = (type, arg) -> {
            args.add(type + ":" + arg);
            if (type == 1) {
                sim.schedule(0, Band.KERNEL, (t2, a2) -> args.add("zero:" + a2), 9, -5L);
            }
        };
        sim.schedule(100, Band.APPLICATION, h, 1, Long.MAX_VALUE);
        sim.schedule(50, Band.TIMEOUT, h, 2, 42);
        sim.run();
        assertEquals(List.of("2:42", "1:" + Long.MAX_VALUE, "zero:-5"), args);
        assertEquals(List.of("50/timeout/2", "100/application/1", "100/kernel/9"), traced);
        sim.setTracer(null);
        sim.schedule(1, h, 3, 0);
        sim.run();
        assertEquals(3, traced.size(), "a removed tracer sees nothing");
    }

    @Test
    void invalidSchedulingIsRefusedWithoutSideEffects() {
        EventHandler h = log.probe("x");
        sim.schedule(100, h, 0, 0);
        sim.run();
        assertEquals(100, sim.now());
        assertThrows(IllegalArgumentException.class, () -> sim.schedule(-1, h, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> sim.schedule(-1, Band.CONTROL, h, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> sim.scheduleAt(99, Band.HARDWARE, h, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> sim.scheduleAt(Long.MIN_VALUE, Band.HARDWARE, h, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> sim.schedule(1, -1, h, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> sim.schedule(1, Band.COUNT, h, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> sim.schedule(0, Band.COUNT, h, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> sim.scheduleAt(200, 99, h, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> sim.schedule(1, Band.HARDWARE, null, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> sim.schedule(0, Band.HARDWARE, null, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> sim.scheduleAt(100, Band.HARDWARE, null, 0, 0));
        assertEquals(0, sim.pendingEvents());
        sim.run();
        assertEquals(List.of("x@100"), log.entries);
        assertEquals(100, sim.now());
        // The boundary cases are accepted.
        sim.scheduleAt(100, Band.OBSERVER, log.probe("now"), 0, 0);
        sim.schedule(0, Band.CONTROL, log.probe("zero"), 0, 0);
        sim.run();
        assertEquals(List.of("x", "zero", "now"), log.labels());
    }

    @Test
    void runUntilRunsEventsAtExactlyUntilAndLeavesTheClockAtUntilIfEventsRemain() {
        sim.schedule(10, log.probe("a"), 0, 0);
        sim.schedule(20, Band.OBSERVER, log.probe("b", () -> {
            sim.schedule(0, Band.OBSERVER, log.probe("b-zero"), 0, 0);
            sim.schedule(1, log.probe("b+1"), 0, 0);
        }), 0, 0);
        sim.schedule(30, log.probe("c"), 0, 0);
        sim.runUntil(20);
        assertEquals(List.of("a@10", "b@20", "b-zero@20"), log.entries);
        assertEquals(20, sim.now());
        assertEquals(2, sim.pendingEvents());

        sim.runUntil(20);
        assertEquals(3, log.entries.size(), "running again until the same time does nothing");
        assertEquals(20, sim.now());

        sim.runUntil(25);
        assertEquals(List.of("a@10", "b@20", "b-zero@20", "b+1@21"), log.entries);
        assertEquals(25, sim.now(), "events remain beyond 25, so the clock reads 25");

        // Events scheduled relative to the advanced clock.
        sim.schedule(0, log.probe("at25"), 0, 0);
        sim.schedule(2, log.probe("at27"), 0, 0);
        sim.run();
        assertEquals(List.of("a@10", "b@20", "b-zero@20", "b+1@21", "at25@25", "at27@27", "c@30"), log.entries);
        assertEquals(30, sim.now(), "no event remains: the clock reads the last event's time");

        sim.runUntil(1000);
        assertEquals(30, sim.now(), "without events the clock does not move");
    }

    @Test
    void stopReturnsAfterTheCurrentEventAndRunResumesInOrder() {
        sim.schedule(10, log.probe("a"), 0, 0);
        sim.schedule(20, Band.HARDWARE, log.probe("stopper", () -> {
            sim.schedule(0, Band.KERNEL, log.probe("zero-after-stop"), 0, 0);
            sim.stop();
        }), 0, 0);
        sim.schedule(20, Band.APPLICATION, log.probe("same-time"), 0, 0);
        sim.schedule(30, log.probe("c"), 0, 0);
        sim.run();
        assertEquals(List.of("a", "stopper"), log.labels());
        assertEquals(20, sim.now());
        assertEquals(3, sim.pendingEvents());
        sim.run();
        assertEquals(List.of("a", "stopper", "zero-after-stop", "same-time", "c"), log.labels());
    }

    @Test
    void stopFromAZeroDelayEventAndUnderRunUntil() {
        sim.schedule(10, log.probe("a", () -> sim.schedule(0, log.probe("zero", sim::stop), 0, 0)), 0, 0);
        sim.schedule(10, Band.KERNEL, log.probe("b"), 0, 0);
        sim.runUntil(100);
        assertEquals(List.of("a", "zero"), log.labels());
        assertEquals(10, sim.now(), "a stopped run leaves the clock at the stopping event");
        sim.runUntil(100);
        assertEquals(List.of("a", "zero", "b"), log.labels());
    }

    @ParameterizedTest(name = "re-entrant {0} refused")
    @ValueSource(strings = {"run", "runUntil"})
    void reentrantRunIsRefused(String method) {
        EventHandler h = (type, arg) -> {
            if (method.equals("run")) {
                sim.run();
            } else {
                sim.runUntil(1_000);
            }
        };
        sim.schedule(5, h, 0, 0);
        SimulationException e = assertThrows(SimulationException.class, sim::run);
        assertInstanceOf(IllegalStateException.class, e.getCause());
        // The refusal did not leave the simulator marked as running.
        sim.schedule(1, log.probe("after"), 0, 0);
        sim.run();
        assertEquals(List.of("after@6"), log.entries);
    }

    static final class Failing extends Component {
        Failing(Simulator sim, Component parent, String name) {
            super(sim, parent, name);
        }

        @Override
        public void handle(int type, long arg) {
            throw new IllegalStateException("queue overflow in test");
        }
    }

    static final class Parent extends Component {
        Parent(Simulator sim, String name) {
            super(sim, name);
        }

        @Override
        public void handle(int type, long arg) {
        }
    }

    @Test
    void handlerExceptionSurfacesAsSimulationExceptionNamingComponentAndTime() {
        Failing nic = new Failing(sim, new Parent(sim, "node3"), "nic");
        sim.schedule(4_250_000, Band.KERNEL, nic, 7, 0);
        SimulationException e = assertThrows(SimulationException.class, sim::run);
        assertTrue(e.getMessage().contains("node3.nic"), e.getMessage());
        assertTrue(e.getMessage().contains(Time.format(4_250_000)), e.getMessage());
        assertInstanceOf(IllegalStateException.class, e.getCause());
        assertEquals("queue overflow in test", e.getCause().getMessage());
        assertEquals(4_250_000, sim.now());
    }

    @Test
    void handlerExceptionFromZeroDelayEventNamesHandlerClass() {
        sim.schedule(3, (type, arg) -> sim.schedule(0, new Thrower(), 1, 0), 0, 0);
        SimulationException e = assertThrows(SimulationException.class, sim::run);
        assertTrue(e.getMessage().contains(Thrower.class.getName()), e.getMessage());
        assertTrue(e.getMessage().contains(Time.format(3)), e.getMessage());
        assertInstanceOf(ArithmeticException.class, e.getCause());
    }

    @Test
    void simulationExceptionFromHandlerIsNotWrappedAgain() {
        SimulationException original = new SimulationException("model says no");
        sim.schedule(3, (type, arg) -> {
            throw original;
        }, 0, 0);
        assertSame(original, assertThrows(SimulationException.class, sim::run));
    }

    static final class Thrower implements EventHandler {
        @Override
        public void handle(int type, long arg) {
            throw new ArithmeticException("boom");
        }
    }
}
