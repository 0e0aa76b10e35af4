package org.pagefabric.sim.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.Simulator;

class ProcessOrderingTest {
    private final Simulator sim = new Simulator(7);
    private final List<String> log = new ArrayList<>();

    @AfterEach
    void tearDown() {
        SimProcess.closeAll(sim);
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void processesStartedAtOneInstantRunInStartOrder(ProcessImpl impl) {
        for (String n : new String[] {"c", "a", "b"}) {
            new SimProcess(sim, null, n, impl, ctx -> {
                log.add(ctx.name() + "@" + ctx.now());
                ctx.sleep(10);
                log.add(ctx.name() + "@" + ctx.now());
            }).start(5);
        }
        sim.run();
        assertEquals(List.of("c@5", "a@5", "b@5", "c@15", "a@15", "b@15"), log);
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void processStartsAfterLowerBandsAtItsInstant(ProcessImpl impl) {
        new SimProcess(sim, null, "p", impl, ctx -> log.add("process")).start(3);
        sim.schedule(3, Band.OBSERVER, (t, a) -> log.add("observer"), 0, 0);
        sim.schedule(3, Band.KERNEL, (t, a) -> log.add("kernel"), 0, 0);
        sim.schedule(3, Band.HARDWARE, (t, a) -> log.add("hardware"), 0, 0);
        sim.run();
        assertEquals(List.of("hardware", "kernel", "process", "observer"), log);
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void yieldNowLetsEventsOfTheSameInstantRunFirst(ProcessImpl impl) {
        SimProcess[] other = new SimProcess[1];
        new SimProcess(sim, null, "first", impl, ctx -> {
            ctx.simulator().schedule(0, Band.HARDWARE, (t, a) -> log.add("hw@" + sim.now()), 0, 0);
            log.add("first-before");
            ctx.yieldNow();
            log.add("first-after@" + ctx.now());
        }).start(4);
        other[0] = new SimProcess(sim, null, "second", impl, ctx -> log.add("second@" + ctx.now()));
        other[0].start(4);
        sim.run();
        assertEquals(List.of("first-before", "hw@4", "second@4", "first-after@4"), log);
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void completingFromAHandlerResumesTheWaiterLaterNotInsideTheHandler(ProcessImpl impl) {
        Completion c = new Completion("c");
        Hardware hw = new Hardware(sim, "hw", arg -> {
            c.complete(arg);
            log.add("handler-done@" + sim.now());
        });
        new SimProcess(sim, null, "p", impl, ctx -> {
            hw.post(100, 9);
            long v = ctx.await(c);
            log.add("woken@" + ctx.now() + " value=" + v);
        }).start();
        sim.run();
        assertEquals(List.of("handler-done@100", "woken@100 value=9"), log);
    }

    @Test
    void aProcessCanJoinAnother() {
        SimProcess worker = new SimProcess(sim, "worker", ctx -> ctx.sleep(50));
        new SimProcess(sim, "joiner", ctx -> {
            ctx.await(worker.finished());
            log.add("joined@" + ctx.now());
        }).start();
        worker.start();
        sim.run();
        assertTrue(worker.isFinished());
        assertEquals(List.of("joined@50"), log);
    }
}
