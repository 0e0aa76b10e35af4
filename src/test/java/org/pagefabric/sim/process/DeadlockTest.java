package org.pagefabric.sim.process;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.pagefabric.sim.SimulationException;
import org.pagefabric.sim.Simulator;

class DeadlockTest {
    private final Simulator sim = new Simulator(9);

    @AfterEach
    void tearDown() {
        SimProcess.closeAll(sim);
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void twoRanksWaitingForEachOtherAreReportedWhenEventsRunOut(ProcessImpl impl) {
        Completion toA = new Completion("a.rx");
        Completion toB = new Completion("b.rx");
        SimProcess a = new SimProcess(sim, null, "a", impl, ctx -> {
            ctx.await(toA); // both receive before sending: a classic deadlock
            toB.complete();
        });
        SimProcess b = new SimProcess(sim, null, "b", impl, ctx -> {
            ctx.await(toB);
            toA.complete();
        });
        SimProcess bystander = new SimProcess(sim, null, "c", impl, ctx -> ctx.sleep(1_000));
        a.start();
        b.start(5);
        bystander.start();
        sim.run(); // returns once events run out, although a and b stay suspended
        assertEquals(1_000, sim.now());
        assertEquals(List.of(a, b), SimProcess.waiting(sim));
        assertSame(toA, a.waitingOn());
        assertNull(bystander.waitingOn());
        SimulationException e = assertThrows(SimulationException.class, () -> SimProcess.checkNoDeadlock(sim));
        assertTrue(e.getMessage().contains("a on a.rx"), e.getMessage());
        assertTrue(e.getMessage().contains("b on b.rx"), e.getMessage());

        a.close();
        b.close();
        assertEquals(SimProcess.State.CLOSED, a.state());
        assertTrue(SimProcess.waiting(sim).isEmpty());
        assertFalse(toA.hasWaiters());
        // A closed process is not woken by a late completion.
        toA.complete();
        assertEquals(0, sim.pendingEvents());
        assertDoesNotThrow(() -> SimProcess.checkNoDeadlock(sim));
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void waitingIsNoDeadlockWhileEventsArePending(ProcessImpl impl) {
        Completion c = new Completion("c");
        new SimProcess(sim, null, "p", impl, ctx -> ctx.await(c)).start();
        new Hardware(sim, "hw", a -> c.complete()).post(100, 0);
        sim.runUntil(50);
        assertEquals(1, SimProcess.waiting(sim).size());
        assertDoesNotThrow(() -> SimProcess.checkNoDeadlock(sim));
        sim.run();
        assertTrue(SimProcess.waiting(sim).isEmpty());
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void closingASleepingProcessCancelsItsWakeUp(ProcessImpl impl) {
        boolean[] woke = new boolean[1];
        SimProcess p = new SimProcess(sim, null, "p", impl, ctx -> {
            ctx.sleep(100);
            woke[0] = true;
        });
        p.start();
        sim.runUntil(50);
        p.close();
        sim.run();
        assertFalse(woke[0]);
        assertEquals(SimProcess.State.CLOSED, p.state());
        assertEquals(0, sim.pendingEvents());
    }
}
