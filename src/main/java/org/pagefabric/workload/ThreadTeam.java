package org.pagefabric.workload;

import org.pagefabric.hw.cpu.Cpu;
import org.pagefabric.hw.cpu.CpuThread;
import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.process.Completion;

/**
 * The threads of one process sharing a computation (an OpenMP team), one per core of its node:
 * each runs its share on its core, cut into slices so that other work on that core (a fault
 * handler's thread, a woken helper) gets the core between slices as the scheduler's wake-up
 * preemption would give it, and the team is done when its last thread is.
 */
final class ThreadTeam implements EventHandler {
    /** CFS's wake-up granularity: a thread woken on a busy core runs within about this long. */
    static final long SLICE_PS = 1_000_000_000L;

    private final CpuThread[] threads;
    private final long[] left;
    private final Completion done;
    private int running;

    /** A team of {@code size} threads named {@code name}.t&lt;i&gt;, thread i on core i modulo the cores. */
    ThreadTeam(Cpu cpu, String name, int size) {
        threads = new CpuThread[size];
        for (int i = 0; i < size; i++) {
            threads[i] = cpu.thread(name + ".t" + i, i % cpu.coreCount());
        }
        left = new long[size];
        done = new Completion(name + ".team");
    }

    /** Starts {@code perThreadPs} of work on every thread; {@link #done()} completes when all have finished. */
    void run(long perThreadPs) {
        done.reset();
        if (perThreadPs <= 0) {
            done.complete();
            return;
        }
        running = threads.length;
        for (int i = 0; i < threads.length; i++) {
            left[i] = perThreadPs;
            slice(i);
        }
    }

    /** Completed when the work started by the last {@link #run} has finished on every thread. */
    Completion done() {
        return done;
    }

    private void slice(int i) {
        long c = Math.min(SLICE_PS, left[i]);
        left[i] -= c;
        threads[i].run(c, this, 0, i);
    }

    @Override
    public void handle(int type, long arg) {
        int i = (int) arg;
        if (left[i] > 0) {
            slice(i);
        } else if (--running == 0) {
            done.complete();
        }
    }
}
