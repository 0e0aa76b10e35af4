package org.pagefabric.hw.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.Simulator;

/** A polling thread occupies its core and notices posted work at poll-iteration boundaries. */
class PollingThreadTest {
    private final Simulator sim = new Simulator(5);
    private final List<String> log = new ArrayList<>();
    private final EventHandler recorder = (type, arg) -> log.add(arg + "@" + sim.now());

    private void at(long time, Runnable action) {
        sim.schedule(time - sim.now(), (t, a) -> action.run(), 0, 0);
    }

    @Test
    void spinningPollerOccupiesTheCoreAndNoticesWorkAtTheNextIteration() {
        Cpu cpu = new Cpu(sim, "cpu", 1, new CpuCosts(0, 0, 0, 0, 100));
        Core core = cpu.core(0);
        PollingThread poller = cpu.pollingThread("poller", 0);
        CpuThread other = cpu.thread("other", 0);
        poller.start();
        assertTrue(core.isSpinning());
        other.run(10, recorder, 0, 1);
        at(250, () -> poller.post(40, recorder, 0, 2));
        at(1000, poller::stop);
        sim.run();
        // Noticed at the iteration boundary 300, handled by 340; the other thread waits for stop.
        assertEquals(List.of("2@340", "1@1010"), log);
        assertEquals(1010, core.busyPs());
        assertFalse(core.isSpinning());
    }

    @Test
    void interruptPreemptsTheSpinAndThePollerResumes() {
        Cpu cpu = new Cpu(sim, "cpu", 1, new CpuCosts(0, 5, 0, 0, 100));
        Core core = cpu.core(0);
        PollingThread poller = cpu.pollingThread("poller", 0);
        poller.start();
        at(50, () -> core.submit(Core.INTERRUPT, null, 20, null, recorder, 0, 3, null));
        // Posted while the interrupt runs: the poller picks it up as soon as it gets the core.
        at(60, () -> poller.post(10, recorder, 0, 4));
        at(500, poller::stop);
        sim.run();
        assertEquals(List.of("3@75", "4@85"), log);
        assertEquals(1, core.interruptsTaken());
        assertEquals(500, core.busyPs());
    }

    @Test
    void workPostedBeforeStartRunsWhenThePollerStarts() {
        Cpu cpu = new Cpu(sim, "cpu", 1, new CpuCosts(0, 0, 0, 0, 100));
        PollingThread poller = cpu.pollingThread("poller", 0);
        poller.post(10, recorder, 0, 1);
        at(20, poller::start);
        at(200, poller::stop);
        sim.run();
        assertEquals(List.of("1@30"), log);
    }

    @Test
    void oneMorePollerOnACoreIsRefused() {
        Cpu cpu = new Cpu(sim, "cpu", 1, new CpuCosts(0, 0, 0, 0, 100));
        cpu.pollingThread("p1", 0);
        assertThrows(IllegalStateException.class, () -> cpu.pollingThread("p2", 0));
    }
}
