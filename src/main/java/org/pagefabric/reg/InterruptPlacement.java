package org.pagefabric.reg;

import org.pagefabric.sim.process.ProcessContext;

/**
 * Where a policy's own messaging stack does its work: on which core each process runs and on
 * which cores the receive interrupts' bottom halves run (003 §4.3: interrupts bound to a single
 * core, or spread over the cores of the processes they serve). A policy whose stack runs on the
 * host's cores offers it through {@link RegistrationPolicy#interruptPlacement}.
 */
public interface InterruptPlacement {
    /** Says that {@code ctx}'s process runs on {@code core} of its node. */
    void place(ProcessContext ctx, int core);

    /** Routes every receive bottom half of every node to {@code core} (irq affinity on one core). */
    void bindInterrupts(int core);

    /** Steers each message's receive bottom halves to the core of the process it belongs to. */
    void spreadInterrupts();
}
