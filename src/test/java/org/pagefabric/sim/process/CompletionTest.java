package org.pagefabric.sim.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.Simulator;

class CompletionTest {
    private final Simulator sim = new Simulator(3);
    private final List<String> log = new ArrayList<>();

    @AfterEach
    void tearDown() {
        SimProcess.closeAll(sim);
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void awaitOnACompletedCompletionReturnsWithoutSuspending(ProcessImpl impl) {
        Completion c = new Completion("c");
        c.complete(17);
        boolean[] otherEventRan = new boolean[1];
        long[] got = new long[1];
        SimProcess p = new SimProcess(sim, null, "p", impl, ctx -> {
            // A zero-delay hardware event would run first if await suspended.
            ctx.simulator().schedule(0, Band.HARDWARE, (t, a) -> otherEventRan[0] = true, 0, 0);
            got[0] = ctx.await(c);
            log.add("after-await other=" + otherEventRan[0]);
        });
        p.start();
        sim.run();
        assertEquals(17, got[0]);
        assertEquals(List.of("after-await other=false"), log);
        assertTrue(otherEventRan[0]);
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void waitersResumeInTheOrderTheyStartedWaitingWithTheValue(ProcessImpl impl) {
        Completion c = new Completion("c");
        // Started in order z, x, y but they begin waiting in order x, y, z.
        long[] startDelay = {30, 10, 20};
        String[] names = {"z", "x", "y"};
        for (int i = 0; i < 3; i++) {
            new SimProcess(sim, null, names[i], impl, ctx -> {
                long v = ctx.await(c);
                log.add(ctx.name() + "@" + ctx.now() + "=" + v);
            }).start(startDelay[i]);
        }
        Hardware hw = new Hardware(sim, "hw", c::complete);
        hw.post(100, 42);
        sim.run();
        assertEquals(List.of("x@100=42", "y@100=42", "z@100=42"), log);
        assertFalse(c.hasWaiters());
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void resetReArmsACompletionForTheNextUse(ProcessImpl impl) {
        Completion c = new Completion("cq");
        Hardware hw = new Hardware(sim, "hw", c::complete);
        new SimProcess(sim, null, "p", impl, ctx -> {
            for (int i = 1; i <= 3; i++) {
                c.reset();
                hw.post(10 * i, i);
                long v = ctx.await(c);
                log.add(ctx.now() + ":" + v);
            }
        }).start();
        sim.run();
        assertEquals(List.of("10:1", "30:2", "60:3"), log);
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void aWokenWaiterKeepsItsValueWhenTheCompletionIsResetBeforeItRuns(ProcessImpl impl) {
        Completion c = new Completion("c");
        Hardware hw = new Hardware(sim, "hw", arg -> {
            c.complete(5);
            c.reset(); // the device re-arms at once: the woken process must still see 5
        });
        long[] got = new long[1];
        new SimProcess(sim, null, "p", impl, ctx -> got[0] = ctx.await(c)).start();
        hw.post(1, 0);
        sim.run();
        assertEquals(5, got[0]);
        assertFalse(c.isDone());
    }

    @Test
    void completingTwiceWithoutResetIsAnError() {
        Completion c = new Completion("dup");
        c.complete(1);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.complete(2));
        assertTrue(e.getMessage().contains("dup"), e.getMessage());
        assertEquals(1, c.value());
    }

    @Test
    void valueOfAPendingCompletionIsAnError() {
        Completion c = new Completion();
        assertThrows(IllegalStateException.class, c::value);
        c.complete();
        assertEquals(0, c.value());
        c.reset();
        assertFalse(c.isDone());
    }
}
