package org.pagefabric.hw.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.Simulator;

/** Interrupt routing, delivery latency, entry cost and the pending bit. */
class InterruptControllerTest {
    private final Simulator sim = new Simulator(9);
    private final List<String> log = new ArrayList<>();

    @Test
    void interruptGoesToItsAffinityCoreAfterDelivery() {
        Cpu cpu = new Cpu(sim, "cpu", 2, new CpuCosts(0, 10, 100, 0, 10));
        EventHandler done = (type, arg) -> log.add("irq" + arg + "@" + sim.now());
        int irq = cpu.interrupts().register("smmu", 1, (t, a) -> 40, done, 0);
        assertSame(cpu.core(1), cpu.interrupts().affinity(irq));
        assertTrue(cpu.interrupts().raise(irq, 7));
        sim.run();
        // delivery 100, entry 10, handler 40
        assertEquals(List.of("irq7@150"), log);
        assertEquals(1, cpu.core(1).interruptsTaken());
        assertEquals(0, cpu.core(0).interruptsTaken());

        cpu.interrupts().setAffinity(irq, 0);
        cpu.interrupts().raise(irq, 8);
        sim.run();
        assertEquals(1, cpu.core(0).interruptsTaken());
        assertEquals(2, cpu.interrupts().raised(irq));
    }

    @Test
    void raiseWhilePendingIsCoalescedButRaiseWhileRunningIsNot() {
        Cpu cpu = new Cpu(sim, "cpu", 1, new CpuCosts(0, 0, 10, 0, 10));
        int[] started = {0};
        int irq = cpu.interrupts().register("dev", 0, (t, a) -> {
            started[0]++;
            return 100;
        }, null, 0);
        cpu.interrupts().raise(irq, 0);
        assertFalse(cpu.interrupts().raise(irq, 0), "pending: absorbed");
        assertTrue(cpu.interrupts().isPending(irq));
        // At 50 the handler runs (started at 10): a new raise is a new interrupt.
        sim.schedule(50, (t, a) -> assertTrue(cpu.interrupts().raise(irq, 0)), 0, 0);
        sim.run();
        assertEquals(2, started[0]);
        assertEquals(3, cpu.interrupts().raised(irq));
        assertEquals(1, cpu.interrupts().coalesced(irq));
        assertEquals(210, sim.now());
    }

    @Test
    void unknownLinesAndCoresAreRefused() {
        Cpu cpu = new Cpu(sim, "cpu", 1, new CpuCosts(0, 0, 0, 0, 10));
        assertThrows(IllegalArgumentException.class, () -> cpu.interrupts().raise(0, 0));
        assertThrows(IllegalArgumentException.class, () -> cpu.interrupts().register("x", 3, (t, a) -> 1, null, 0));
        assertThrows(IllegalArgumentException.class, () -> new CpuCosts(-1, 0, 0, 0, 10));
        assertThrows(IllegalArgumentException.class, () -> new CpuCosts(0, 0, 0, 0, 0));
    }
}
