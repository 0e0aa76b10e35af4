package org.pagefabric.hw.cpu;

import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.process.Completion;

/**
 * A software thread (a kernel thread, or an application process's thread) pinned to one core.
 * Its identity is what context switches are charged on: a core pays a switch when it runs
 * work of a different thread than the last one.
 */
public final class CpuThread {
    private final String name;
    private final int id;
    private final Core core;

    CpuThread(String name, int id, Core core) {
        this.name = name;
        this.id = id;
        this.core = core;
    }

    /** The thread's name, for reports. */
    public String name() {
        return name;
    }

    /** The thread's id, unique within its CPU. */
    public int id() {
        return id;
    }

    /** The core the thread is pinned to. */
    public Core core() {
        return core;
    }

    /** Runs {@code costPs} of this thread's work, then {@code done.handle(type, arg)}. */
    public void run(long costPs, EventHandler done, int type, long arg) {
        core.submit(Core.THREAD, this, costPs, null, done, type, arg, null);
    }

    /** Runs {@code costPs} of this thread's work, then completes {@code done} with {@code value}. */
    public void run(long costPs, Completion done, long value) {
        core.submit(Core.THREAD, this, costPs, null, null, 0, value, done);
    }

    @Override
    public String toString() {
        return name + "@" + core.name();
    }
}
