package org.pagefabric.sim.process;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.SimulationException;
import org.pagefabric.sim.Simulator;

class SleepTest {
    private final Simulator sim = new Simulator(11);
    private final List<String> log = new ArrayList<>();

    @AfterEach
    void tearDown() {
        SimProcess.closeAll(sim);
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void sleepAdvancesVirtualTimeByExactlyTheDelay(ProcessImpl impl) {
        long[] seen = new long[4];
        SimProcess p = new SimProcess(sim, null, "p", impl, ctx -> {
            seen[0] = ctx.now();
            ctx.sleep(1);
            seen[1] = ctx.now();
            ctx.sleep(999_999);
            seen[2] = ctx.now();
            ctx.sleep(0);
            seen[3] = ctx.now();
        });
        p.start(7);
        sim.run();
        assertEquals(7, seen[0]);
        assertEquals(8, seen[1]);
        assertEquals(1_000_007, seen[2]);
        assertEquals(1_000_007, seen[3]);
        assertEquals(SimProcess.State.FINISHED, p.state());
        assertEquals(1_000_007, sim.now());
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void aSleeperWakesAfterHardwareEventsOfItsWakeUpInstant(ProcessImpl impl) {
        new SimProcess(sim, null, "p", impl, ctx -> {
            ctx.sleep(20);
            log.add("process@" + ctx.now());
        }).start();
        // Scheduled after the sleep's wake-up, yet in a lower band: it goes first.
        sim.schedule(20, Band.OBSERVER, (t, a) -> log.add("observer@" + sim.now()), 0, 0);
        sim.schedule(20, Band.HARDWARE, (t, a) -> log.add("hardware@" + sim.now()), 0, 0);
        sim.run();
        assertEquals(List.of("hardware@20", "process@20", "observer@20"), log);
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void aSleepingProcessIsReadyAndRunUntilStopsInsideTheSleep(ProcessImpl impl) {
        SimProcess p = new SimProcess(sim, null, "p", impl, ctx -> ctx.sleep(1_000));
        p.start();
        sim.runUntil(500);
        assertEquals(SimProcess.State.READY, p.state());
        assertEquals(500, sim.now());
        sim.run();
        assertEquals(SimProcess.State.FINISHED, p.state());
        assertEquals(1_000, sim.now());
    }

    @ParameterizedTest
    @EnumSource(ProcessImpl.class)
    void aNegativeSleepFailsTheProcess(ProcessImpl impl) {
        new SimProcess(sim, null, "p", impl, ctx -> ctx.sleep(-1)).start();
        SimulationException e = assertThrows(SimulationException.class, sim::run);
        assertInstanceOf(IllegalArgumentException.class, e.getCause());
    }
}
