package org.pagefabric.sim.process;

import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.stat.Counter;

/**
 * A mutex that simulated threads take and give back (a library's lock, such as a registration
 * cache's): a thread that finds it held waits until its holder releases it. Waits are counted in
 * {@code <name>.lockWaits}, so a run whose threads end up waiting on each other can be told from
 * a model that forgot to complete something: a lock wait in a cycle is a deadlock the program
 * itself would have.
 */
public final class SimLock {
    /** Suffix of the counter of waits for a held lock. */
    public static final String WAITS = ".lockWaits";

    private final String name;
    private final Counter waits;
    private String holder;
    private Completion released;

    /** A free lock called {@code name} (e.g. {@code node0.rank0.mr-cache.lock}). */
    public SimLock(Simulator sim, String name) {
        this.name = name;
        this.waits = sim.statistics().counter(name + WAITS, "waits", "waits for " + name + " while another thread held it");
    }

    /** Takes the lock for {@code ctx}'s process, waiting while another holds it. */
    public void acquire(ProcessContext ctx) {
        while (holder != null) {
            waits.increment();
            if (released == null) {
                released = new Completion(name + ", held by " + holder);
            }
            ctx.await(released);
        }
        holder = ctx.name();
    }

    /** Gives the lock back and wakes every thread waiting for it (the first to run takes it). */
    public void release() {
        if (holder == null) {
            throw new IllegalStateException(name + " released while free");
        }
        holder = null;
        Completion c = released;
        released = null;
        if (c != null) {
            c.complete();
        }
    }

    /** The name of the process holding the lock, or null when it is free. */
    public String holder() {
        return holder;
    }
}
