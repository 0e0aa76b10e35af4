package org.pagefabric.hw.cpu;

import java.util.ArrayList;
import java.util.List;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.stat.Counter;

/**
 * Routes device interrupts (MSI vectors) to cores. Each registered line has a handler, an
 * affinity core and a pending bit: a line raised again before its handler has started is not
 * queued twice (as an MSI vector's pending bit in the local APIC, or an ARM GIC's pending
 * state), so a handler must read the device's state, not count its invocations. Raising a line
 * delivers the interrupt to its core after {@link CpuCosts#interruptDeliveryPs()}.
 */
public final class InterruptController {
    private final Cpu cpu;
    private final List<Line> lines = new ArrayList<>();

    InterruptController(Cpu cpu) {
        this.cpu = cpu;
    }

    /**
     * Registers an interrupt line.
     *
     * @param name    the line's name (statistics {@code <cpu>.irq.<name>.raised} and
     *                {@code .coalesced})
     * @param core    the affinity core
     * @param handler gives the handler's cost when it starts (and reads the device's state)
     * @param done    called when the handler ends, or null
     * @param type    type given to {@code handler} and {@code done}
     * @return the line's number, for {@link #raise}
     */
    public int register(String name, int core, WorkBody handler, EventHandler done, int type) {
        if (handler == null) {
            throw new IllegalArgumentException("interrupt line " + name + " needs a handler");
        }
        Line line = new Line(name, cpu.core(core), handler, done, type,
                cpu.simulator().statistics().counter(cpu.name() + ".irq." + name + ".raised", "interrupts",
                        "times the line was raised"),
                cpu.simulator().statistics().counter(cpu.name() + ".irq." + name + ".coalesced", "interrupts",
                        "raises absorbed by a pending interrupt"));
        lines.add(line);
        return lines.size() - 1;
    }

    /** Routes a line to another core from now on (e.g. "the interrupt goes to core 0"). */
    public void setAffinity(int irq, int core) {
        line(irq).core = cpu.core(core);
    }

    /** The core a line is routed to. */
    public Core affinity(int irq) {
        return line(irq).core;
    }

    /**
     * Raises a line with an argument for its handler; absorbed if the line is already pending.
     *
     * @return whether an interrupt was sent (false: coalesced)
     */
    public boolean raise(int irq, long arg) {
        Line line = line(irq);
        line.raised.increment();
        if (line.pending) {
            line.coalesced.increment();
            return false;
        }
        line.pending = true;
        cpu.simulator().schedule(cpu.costs().interruptDeliveryPs(), Band.HARDWARE, cpu, irq, arg);
        return true;
    }

    /** Whether a line is raised and its handler has not started. */
    public boolean isPending(int irq) {
        return line(irq).pending;
    }

    /** Times a line was raised. */
    public long raised(int irq) {
        return line(irq).raised.value();
    }

    /** Raises of a line absorbed by a pending interrupt. */
    public long coalesced(int irq) {
        return line(irq).coalesced.value();
    }

    /** Delivery: the interrupt enters its core's interrupt queue. */
    void deliver(int irq, long arg) {
        Line line = line(irq);
        line.core.submit(Core.INTERRUPT, null, 0, line, line.done, line.type, arg, null);
    }

    private Line line(int irq) {
        if (irq < 0 || irq >= lines.size()) {
            throw new IllegalArgumentException("no interrupt line " + irq + " on " + cpu.name());
        }
        return lines.get(irq);
    }

    private static final class Line implements WorkBody {
        final String name;
        Core core;
        final WorkBody handler;
        final EventHandler done;
        final int type;
        final Counter raised;
        final Counter coalesced;
        boolean pending;

        Line(String name, Core core, WorkBody handler, EventHandler done, int type, Counter raised,
                Counter coalesced) {
            this.name = name;
            this.core = core;
            this.handler = handler;
            this.done = done;
            this.type = type;
            this.raised = raised;
            this.coalesced = coalesced;
        }

        @Override
        public long begin(int t, long arg) {
            pending = false;
            return handler.begin(t, arg);
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
