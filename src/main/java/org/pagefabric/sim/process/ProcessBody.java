package org.pagefabric.sim.process;

/**
 * The sequential code of a {@link SimProcess}: an application rank written as straight-line
 * code that sleeps and waits on {@link Completion}s through its {@link ProcessContext}.
 *
 * <p>The body may throw anything: the failure ends the process and surfaces from
 * {@link org.pagefabric.sim.Simulator#run()} as a {@link org.pagefabric.sim.SimulationException}
 * naming the process.
 */
@FunctionalInterface
public interface ProcessBody {
    /**
     * Runs the process to its end.
     *
     * @param ctx the process's handle on virtual time; valid only inside this call, on this
     *            process (do not hand it to hardware models or other processes)
     */
    void run(ProcessContext ctx) throws Exception;
}
