package org.pagefabric.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A lane changes where events wait, never the order they run in: the same random schedule run
 * with and without lanes dispatches the same events at the same times in the same order, also
 * when the sequence numbers wrap and are renumbered.
 */
class EventLaneTest {
    private static final int LANES = 5;

    static LongStream seeds() {
        return LongStream.rangeClosed(1, 40);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void lanesKeepTheOrderOfAPlainSchedule(long seed) {
        List<String> plain = new Driver(seed, false, 1L << 34).run();
        List<String> laned = new Driver(seed, true, 1L << 34).run();
        assertTrue(plain.size() > 500, "the schedule must do something: " + plain.size());
        assertEquals(plain, laned);
    }

    @ParameterizedTest
    @MethodSource("seeds")
    void renumberingKeepsTheOrderOfEventsWaitingInLanes(long seed) {
        List<String> plain = new Driver(seed, false, 1L << 34).run();
        // A limit this small renumbers every few insertions, with lanes holding many events.
        assertEquals(plain, new Driver(seed, true, 7).run());
        assertEquals(plain, new Driver(seed, false, 5).run());
    }

    @Test
    void countsAndTracerSeeTheTargetNotTheLane() {
        Simulator sim = new Simulator(1);
        List<EventHandler> traced = new ArrayList<>();
        sim.setTracer((time, band, handler, type) -> traced.add(handler));
        List<Long> args = new ArrayList<>();
        EventHandler target = (type, arg) -> args.add(arg);
        EventLane lane = sim.lane(target, Band.KERNEL);
        lane.schedule(10, 1, 100);
        lane.schedule(10, 1, 101);
        lane.schedule(20, 1, 102);
        lane.schedule(5, 1, 103); // earlier than the tail: runs first, as an ordinary event
        assertEquals(4, sim.pendingEvents());
        sim.run();
        assertEquals(List.of(103L, 100L, 101L, 102L), args);
        assertEquals(4, sim.eventsExecuted());
        assertEquals(0, sim.pendingEvents());
        assertEquals(4, traced.size());
        traced.forEach(h -> assertSame(target, h));
        assertSame(target, lane.target());
        assertEquals(Band.KERNEL, lane.band());
    }

    @Test
    void aFailingTargetIsNamedInTheError() {
        Simulator sim = new Simulator(1);
        EventLane lane = sim.lane(new Failing(sim), Band.HARDWARE);
        lane.schedule(3, 7, 0);
        SimulationException e = assertThrows(SimulationException.class, sim::run);
        assertTrue(e.getMessage().contains("event type 7 in band hardware at 3 ps in port0 failed"), e.getMessage());
    }

    private static final class Failing extends Component {
        Failing(Simulator sim) {
            super(sim, "port0");
        }

        @Override
        public void handle(int type, long arg) {
            throw new IllegalStateException("boom");
        }
    }

    @Test
    void badArgumentsAreRefused() {
        Simulator sim = new Simulator(1);
        EventLane lane = sim.lane((type, arg) -> { }, Band.HARDWARE);
        assertThrows(IllegalArgumentException.class, () -> lane.schedule(-1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> sim.lane(null, Band.HARDWARE));
        assertThrows(IllegalArgumentException.class, () -> sim.lane((type, arg) -> { }, Band.COUNT));
    }

    /**
     * Random work: every event logs itself and schedules up to three more, each to one of a few
     * targets, through that target's lane or directly, with delays that are sometimes zero and
     * sometimes earlier than what the lane already holds.
     */
    private static final class Driver {
        private final SplittableRandom random;
        private final Simulator sim;
        private final List<String> log = new ArrayList<>();
        private final EventHandler[] targets = new EventHandler[LANES];
        private final EventLane[] lanes = new EventLane[LANES];
        private final int[] bands = new int[LANES];
        private final boolean useLanes;
        private int budget = 4000;

        Driver(long seed, boolean useLanes, long seqLimit) {
            this.random = new SplittableRandom(seed);
            this.sim = new Simulator(seed, new QuaternaryHeap(16), 16, seqLimit);
            this.useLanes = useLanes;
            for (int i = 0; i < LANES; i++) {
                int id = i;
                targets[i] = (type, arg) -> fire(id, type, arg);
                bands[i] = i % Band.COUNT;
                // Lanes exist in both runs, so that handler ids are the same.
                lanes[i] = sim.lane(targets[i], bands[i]);
            }
        }

        List<String> run() {
            for (int i = 0; i < 20; i++) {
                spawn();
            }
            sim.run();
            assertEquals(0, sim.pendingEvents());
            return log;
        }

        private void fire(int target, int type, long arg) {
            log.add(sim.now() + ":" + target + ":" + type + ":" + arg);
            int n = random.nextInt(4);
            for (int i = 0; i < n; i++) {
                spawn();
            }
        }

        private void spawn() {
            if (budget-- <= 0) {
                return;
            }
            int t = random.nextInt(LANES);
            long delay = switch (random.nextInt(4)) {
                case 0 -> 0;
                case 1 -> random.nextInt(3);
                case 2 -> 50 + random.nextInt(10);
                default -> random.nextInt(200);
            };
            int type = random.nextInt(1, 9);
            long arg = random.nextLong(1_000_000);
            boolean viaLane = random.nextInt(3) != 0;
            if (useLanes && viaLane) {
                lanes[t].schedule(delay, type, arg);
            } else {
                sim.schedule(delay, bands[t], targets[t], type, arg);
            }
        }
    }
}
