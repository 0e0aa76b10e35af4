package org.pagefabric.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Regressions for clock bugs found while the kernel tests were written: cancelled events must
 * not move the clock, {@code runUntil} must not move it back, and a delay must not overflow it.
 */
class ClockRegressionTest {
    private final Simulator sim = new Simulator(1);
    private final List<Long> ran = new ArrayList<>();
    private final EventHandler record = (type, arg) -> ran.add(sim.now());

    /**
     * A cancelled event must not move the clock: when the last entry left in the queue is a
     * cancelled one, the loop sets {@code now} to its time before finding it dead, so after
     * {@code run()} the clock reads the cancelled timer's time instead of the last event's. The
     * Javadoc of {@code runUntil} says "the time of the last event", and later relative
     * scheduling and {@code summary().simulatedPs()} inherit the error (a run whose last
     * retransmission timer was cancelled reports a longer simulated time).
     */
    @Test
    @DisplayName("after run(), the clock reads a cancelled event's time")
    void cancelledEventsDoNotMoveTheClockAtTheEndOfARun() {
        sim.schedule(10, record, 0, 0);
        long timer = sim.schedule(Time.MS, Band.TIMEOUT, record, 0, 0);
        assertTrue(sim.cancel(timer));
        sim.run();
        assertEquals(List.of(10L), ran);
        assertEquals(10, sim.now(), "clock after run() with only a cancelled timer left");
        assertEquals(10, sim.summary().simulatedPs());
        // Consequence: a relative delay counts from the wrong time.
        sim.schedule(5, record, 0, 0);
        sim.run();
        assertEquals(List.of(10L, 15L), ran);
    }

    /**
     * runUntil flavour: with only cancelled events beyond {@code until}, the clock reads
     * {@code until}, whereas the same live events without the cancelled one leave it at the
     * last event's time: the result depends on what was cancelled, i.e. on the kernel's lazy
     * deletion, not on the pending events.
     */
    @Test
    @DisplayName("after runUntil(), the clock depends on cancelled events")
    void runUntilClockDoesNotDependOnCancelledEvents() {
        sim.schedule(10, record, 0, 0);
        assertTrue(sim.cancel(sim.schedule(100, record, 0, 0)));
        sim.runUntil(50);

        Simulator plain = new Simulator(1);
        plain.schedule(10, (type, arg) -> { }, 0, 0);
        plain.runUntil(50);

        assertEquals(plain.now(), sim.now(), "same live events, different clock");
    }

    /**
     * {@code runUntil(until)} with {@code until} before the current time must not move the clock
     * backwards (when events remain beyond), after which {@code scheduleAt} accepts times in the
     * past and events run out of time order. It should be refused or be a no-op.
     */
    @Test
    @DisplayName("runUntil(t) with t < now() moves the clock backwards")
    void runUntilInThePastDoesNotMoveTheClockBackwards() {
        sim.schedule(100, record, 0, 0);
        sim.schedule(1_000, record, 0, 0);
        sim.runUntil(500);
        assertEquals(500, sim.now());
        try {
            sim.runUntil(200);
        } catch (IllegalArgumentException | IllegalStateException refused) {
            // Refusing is an acceptable fix.
        }
        assertTrue(sim.now() >= 500, "clock went back from 500 to " + sim.now());
    }

    /**
     * {@code schedule(delay)} must check {@code now + delay} for overflow: a huge
     * delay (e.g. {@code Time.NEVER} for "a timer that never fires") wraps to a negative time,
     * the event runs first and the clock jumps to a negative value. Refusing the delay, or
     * saturating it at {@code Time.NEVER}, would both be correct.
     */
    @Test
    @DisplayName("schedule(now + delay overflowing) runs an event at a negative time")
    void hugeDelaysDoNotWrapIntoThePast() {
        sim.schedule(10, record, 0, 0);
        sim.runUntil(10);
        sim.schedule(20, record, 0, 0);
        try {
            sim.schedule(Time.NEVER, Band.TIMEOUT, (type, arg) -> fail("a never-timer fired at " + sim.now()), 0, 0);
        } catch (ClockOverflowException refused) {
            // Refusing is an acceptable fix.
        }
        sim.runUntil(1_000);
        assertEquals(List.of(10L, 30L), ran);
        assertTrue(sim.now() >= 30, "clock went back to " + sim.now());
    }
}
