package org.pagefabric.sim.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.sim.SimulationException;
import org.pagefabric.sim.Simulator;

/** Thread-backed processes must leave no thread behind, however they end. */
class ThreadLeakTest {
    private static Thread threadOf(SimProcess p) {
        return ((ThreadHandoffCoroutine) p.coroutine()).thread();
    }

    @Test
    void everyThreadEndsAfterCloseAllWhateverTheProcessState() throws Exception {
        Simulator sim = new Simulator(1);
        List<SimProcess> ps = new ArrayList<>();
        List<String> cleanedUp = new ArrayList<>();
        ps.add(new SimProcess(sim, null, "finishes", ProcessImpl.THREAD, ctx -> ctx.sleep(10)));
        ps.add(new SimProcess(sim, null, "stuck", ProcessImpl.THREAD, ctx -> {
            try {
                ctx.await(new Completion("never"));
            } finally {
                cleanedUp.add("stuck");
            }
        }));
        ps.add(new SimProcess(sim, null, "stuckAndWaitsAgainWhileUnwinding", ProcessImpl.THREAD, ctx -> {
            try {
                ctx.await(new Completion("never"));
            } finally {
                try {
                    ctx.sleep(1);
                } catch (IllegalStateException expected) {
                    cleanedUp.add("rewait-refused");
                }
            }
        }));
        ps.add(new SimProcess(sim, null, "fails", ProcessImpl.THREAD, ctx -> {
            ctx.sleep(5);
            throw new IllegalStateException("boom");
        }));
        ps.add(new SimProcess(sim, null, "sleepsPastTheEnd", ProcessImpl.THREAD, ctx -> ctx.sleep(1_000_000)));
        SimProcess neverStarted = new SimProcess(sim, null, "neverStarted", ProcessImpl.THREAD, ctx -> { });
        for (SimProcess p : ps) {
            p.start();
        }
        assertThrows(SimulationException.class, sim::run);
        sim.runUntil(100);
        assertTrue(ps.get(0).isFinished());
        List<Thread> threads = new ArrayList<>();
        for (SimProcess p : ps) {
            Thread t = threadOf(p);
            assertNotNull(t, p.name());
            assertTrue(t.isVirtual() && t.isDaemon(), p.name());
            threads.add(t);
        }
        assertTrue(threads.get(1).isAlive(), "a suspended process keeps its thread until closed");

        SimProcess.closeAll(sim);

        for (Thread t : threads) {
            t.join(10_000);
            assertFalse(t.isAlive(), t.getName());
        }
        assertNull(threadOf(neverStarted));
        assertEquals(List.of("stuck", "rewait-refused"), cleanedUp);
        assertEquals(SimProcess.State.CLOSED, ps.get(4).state());
        assertEquals(SimProcess.State.FAILED, ps.get(3).state());
        assertEquals(0, sim.pendingEvents());
    }

    @Test
    void aClosedCoroutineCannotBeResumed() {
        ThreadHandoffCoroutine[] self = new ThreadHandoffCoroutine[1];
        self[0] = new ThreadHandoffCoroutine("c", () -> self[0].suspend());
        self[0].resume();
        assertFalse(self[0].isDone());
        self[0].close();
        assertTrue(self[0].isDone());
        assertThrows(IllegalStateException.class, self[0]::resume);
        assertFalse(self[0].thread().isAlive());
    }

    @Test
    void anExceptionEscapingABareCoroutineIsRethrownByResume() {
        ThreadHandoffCoroutine c = new ThreadHandoffCoroutine("c", () -> {
            throw new UnsupportedOperationException("escaped");
        });
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, c::resume);
        assertEquals("escaped", e.getMessage());
        assertTrue(c.isDone());
        c.close();
    }
}
