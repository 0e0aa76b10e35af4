package org.pagefabric.sim.process;

import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;

/**
 * A process body's handle on the simulation. Every method except {@link #name()} may only be
 * called by the body of the process it belongs to, while that body runs: a call from a hardware
 * event handler, from another process, or after the process ended throws
 * {@link IllegalStateException}. (A hardware model signals a process through a
 * {@link Completion}, never by calling into its context.)
 *
 * <p>Suspending methods ({@link #sleep}, {@link #yieldNow}, {@link #await} on a pending
 * completion) return when the process's resume event runs, in
 * {@link org.pagefabric.sim.Band#APPLICATION}. With the continuation implementation they must
 * not be called while a native frame is on the body's stack (nor, before JDK 24, while holding
 * a monitor): the suspension then fails with an {@link IllegalStateException} naming the cause.
 */
public final class ProcessContext {
    private final SimProcess process;

    ProcessContext(SimProcess process) {
        this.process = process;
    }

    /** Current virtual time in picoseconds. */
    public long now() {
        check("now");
        return process.simulator().now();
    }

    /**
     * Suspends for {@code delayPs} picoseconds of virtual time. Events due at the wake-up time
     * in lower bands (hardware, kernel) run first. {@code sleep(0)} is {@link #yieldNow()}.
     *
     * @throws IllegalArgumentException if {@code delayPs} is negative
     */
    public void sleep(long delayPs) {
        check("sleep");
        if (delayPs < 0) {
            throw new IllegalArgumentException(process.name() + ": negative sleep " + delayPs + " ps");
        }
        process.sleep(delayPs);
    }

    /**
     * Lets every event already due at this instant in bands up to
     * {@link org.pagefabric.sim.Band#APPLICATION} run (including other processes' resumes and
     * hardware events this process just scheduled with zero delay), then continues at the same
     * time.
     */
    public void yieldNow() {
        check("yieldNow");
        process.sleep(0L);
    }

    /**
     * Waits until {@code c} is completed and returns its value. Returns at once, without
     * suspending, if it is already completed (completions are level-triggered).
     */
    public long await(Completion c) {
        check("await");
        if (c == null) {
            throw new IllegalArgumentException(process.name() + ": await(null)");
        }
        return process.await(c);
    }

    /** The process's own random stream (derived from its name), independent of event order. */
    public RandomStream random() {
        check("random");
        return process.random();
    }

    /** The process's hierarchical name, e.g. {@code node3.rank0}. */
    public String name() {
        return process.name();
    }

    /** The process. */
    public SimProcess process() {
        check("process");
        return process;
    }

    /** The simulator, for scheduling events and reaching components. */
    public Simulator simulator() {
        check("simulator");
        return process.simulator();
    }

    private void check(String method) {
        if (!process.inBody()) {
            throw new IllegalStateException("ProcessContext." + method + "() of " + process.name()
                    + " called from outside that process's body (state " + process.state()
                    + "): only the running body may use its context; hardware models signal it"
                    + " through a Completion");
        }
    }
}
