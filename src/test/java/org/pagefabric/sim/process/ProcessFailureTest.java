package org.pagefabric.sim.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import jdk.internal.vm.Continuation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.SimulationException;
import org.pagefabric.sim.Simulator;

class ProcessFailureTest {
    private final Simulator sim = new Simulator(5);

    @AfterEach
    void tearDown() {
        SimProcess.closeAll(sim);
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void aCheckedExceptionSurfacesFromRunNamingTheProcess(ProcessImpl impl) {
        Component node = new Hardware(sim, "node3", a -> { });
        IOException boom = new IOException("disk on fire");
        SimProcess p = new SimProcess(sim, node, "rank0", impl, ctx -> {
            ctx.sleep(25);
            throw boom;
        });
        p.start();
        SimulationException e = assertThrows(SimulationException.class, sim::run);
        assertTrue(e.getMessage().contains("node3.rank0"), e.getMessage());
        assertSame(boom, e.getCause());
        assertSame(boom, p.failure());
        assertEquals(SimProcess.State.FAILED, p.state());
        assertEquals(25, sim.now());
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void anErrorInTheFirstStepSurfacesToo(ProcessImpl impl) {
        new SimProcess(sim, null, "p", impl, ctx -> {
            throw new AssertionError("bad invariant");
        }).start();
        SimulationException e = assertThrows(SimulationException.class, sim::run);
        assertInstanceOf(AssertionError.class, e.getCause());
        assertTrue(e.getMessage().contains("process p failed"), e.getMessage());
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void theSimulationCanGoOnAfterAProcessFailed(ProcessImpl impl) {
        new SimProcess(sim, null, "bad", impl, ctx -> {
            throw new IllegalStateException("x");
        }).start();
        SimProcess good = new SimProcess(sim, null, "good", impl, ctx -> ctx.sleep(10));
        good.start();
        assertThrows(SimulationException.class, sim::run);
        sim.run();
        assertTrue(good.isFinished());
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void contextCallsFromAHardwareHandlerFailClearly(ProcessImpl impl) {
        ProcessContext[] leaked = new ProcessContext[1];
        SimProcess p = new SimProcess(sim, null, "rank", impl, ctx -> {
            leaked[0] = ctx;
            ctx.await(new Completion("never"));
        });
        Hardware hw = new Hardware(sim, "nic", a -> leaked[0].sleep(5));
        p.start();
        hw.post(10, 0);
        SimulationException e = assertThrows(SimulationException.class, sim::run);
        IllegalStateException cause = assertInstanceOf(IllegalStateException.class, e.getCause());
        assertTrue(cause.getMessage().contains("ProcessContext.sleep() of rank called from outside"),
                cause.getMessage());
        assertEquals(SimProcess.State.WAITING, p.state()); // the failed call did not disturb it
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void contextCallsFromAnotherProcessFailTheCaller(ProcessImpl impl) {
        ProcessContext[] leaked = new ProcessContext[1];
        SimProcess victim = new SimProcess(sim, null, "victim", impl, ctx -> {
            leaked[0] = ctx;
            ctx.sleep(100);
        });
        SimProcess thief = new SimProcess(sim, null, "thief", impl, ctx -> {
            ctx.sleep(10);
            leaked[0].now();
        });
        victim.start();
        thief.start();
        SimulationException e = assertThrows(SimulationException.class, sim::run);
        assertTrue(e.getMessage().contains("process thief failed"), e.getMessage());
        assertInstanceOf(IllegalStateException.class, e.getCause());
        sim.run();
        assertTrue(victim.isFinished());
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void contextCallsFromOutsideTheSimulationFail(ProcessImpl impl) {
        ProcessContext[] leaked = new ProcessContext[1];
        new SimProcess(sim, null, "p", impl, ctx -> leaked[0] = ctx).start();
        sim.run();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> leaked[0].await(new Completion()));
        assertTrue(e.getMessage().contains("FINISHED"), e.getMessage());
        assertEquals("p", leaked[0].name());
    }

    @Test
    void aDirectCallOfTheResumeHandlerIsRejected() {
        SimProcess p = new SimProcess(sim, "p", ctx -> ctx.sleep(10));
        p.start();
        assertThrows(IllegalStateException.class, () -> p.handle(SimProcess.START, 0));
        sim.run();
        assertTrue(p.isFinished());
    }

    @Test
    void aPinnedContinuationFailsTheSuspensionWithTheReason() {
        SimProcess p = new SimProcess(sim, null, "pinned", ProcessImpl.CONTINUATION, ctx -> {
            Continuation.pin();
            try {
                ctx.sleep(5);
            } finally {
                Continuation.unpin();
            }
        });
        p.start();
        SimulationException e = assertThrows(SimulationException.class, sim::run);
        IllegalStateException cause = assertInstanceOf(IllegalStateException.class, e.getCause());
        assertTrue(cause.getMessage().contains("pinned"), cause.getMessage());
        // The failed sleep left no stray resume event behind.
        assertEquals(0, sim.pendingEvents());
    }

    @Test
    void startingTwiceIsAnError() {
        SimProcess p = new SimProcess(sim, "p", ctx -> { });
        p.start();
        assertThrows(IllegalStateException.class, p::start);
    }
}
