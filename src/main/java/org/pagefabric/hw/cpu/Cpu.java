package org.pagefabric.hw.cpu;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.Simulator;

/**
 * A node's CPU: its cores ({@code <name>.core<i>}), the interrupt controller that routes device
 * interrupts to them, and the factory of the threads, polling threads and tasklets that run
 * on them. See {@link Core} for how work is scheduled.
 */
public final class Cpu extends Component {
    private final CpuCosts costs;
    private final Core[] cores;
    private final InterruptController interrupts;
    private int nextThreadId;

    /** A CPU named {@code parent.localName}, e.g. {@code node3.cpu}. */
    public Cpu(Simulator sim, Component parent, String localName, int coreCount, CpuCosts costs) {
        super(sim, parent, localName);
        if (coreCount <= 0) {
            throw new IllegalArgumentException("a CPU needs at least one core, got " + coreCount);
        }
        if (costs == null) {
            throw new IllegalArgumentException("CPU " + name() + " needs its costs");
        }
        this.costs = costs;
        this.cores = new Core[coreCount];
        for (int i = 0; i < coreCount; i++) {
            cores[i] = new Core(this, i, costs);
        }
        this.interrupts = new InterruptController(this);
    }

    /** A top-level CPU. */
    public Cpu(Simulator sim, String name, int coreCount, CpuCosts costs) {
        this(sim, null, name, coreCount, costs);
    }

    /** The CPU's costs. */
    public CpuCosts costs() {
        return costs;
    }

    /** Number of cores. */
    public int coreCount() {
        return cores.length;
    }

    /** Core {@code i}. */
    public Core core(int i) {
        if (i < 0 || i >= cores.length) {
            throw new IllegalArgumentException("core " + i + " is not in 0.." + (cores.length - 1) + " on " + name());
        }
        return cores[i];
    }

    /** All cores, in index order. */
    public List<Core> cores() {
        List<Core> list = new ArrayList<>(cores.length);
        Collections.addAll(list, cores);
        return Collections.unmodifiableList(list);
    }

    /** The interrupt controller. */
    public InterruptController interrupts() {
        return interrupts;
    }

    /** A new thread pinned to core {@code core}. */
    public CpuThread thread(String threadName, int core) {
        return new CpuThread(threadName, nextThreadId++, core(core));
    }

    /** A new polling thread pinned to core {@code core}, not yet started (one per core). */
    public PollingThread pollingThread(String threadName, int core) {
        return new PollingThread(thread(threadName, core));
    }

    /** A tasklet on core {@code core}; see {@link Tasklet}. */
    public Tasklet tasklet(String taskletName, int core, WorkBody body, EventHandler done,
            int type) {
        return new Tasklet(taskletName, core(core), body, done, type);
    }

    /** Interrupt delivery: {@code type} is the line, {@code arg} the handler's argument. */
    @Override
    public void handle(int type, long arg) {
        interrupts.deliver(type, arg);
    }
}
