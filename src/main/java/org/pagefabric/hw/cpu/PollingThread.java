package org.pagefabric.hw.cpu;

import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.process.Completion;

/**
 * A thread that spins on its core, polling for events (a completion queue, an access log's
 * tail pointer) instead of sleeping until an interrupt. While it runs it occupies the core:
 * other threads' work waits, the spin counts as busy time, and interrupts and tasklets still
 * preempt it. Work {@linkplain #post posted} to it is noticed at the end of the poll iteration
 * in progress ({@link CpuCosts#pollIterationPs()}), or at once when the poller is not spinning
 * but busy with earlier posted work (the loop checks its queue before spinning again).
 */
public final class PollingThread {
    private final CpuThread thread;
    private boolean running;

    PollingThread(CpuThread thread) {
        this.thread = thread;
        thread.core().attachPoller(this);
    }

    /** The thread that polls. */
    public CpuThread thread() {
        return thread;
    }

    /** Whether the poll loop runs. */
    public boolean isRunning() {
        return running;
    }

    /** Starts the poll loop: the core is taken as soon as no interrupt or tasklet needs it. */
    public void start() {
        running = true;
        thread.core().pollerChanged();
    }

    /** Stops the poll loop: the core goes back to other threads; posted work waits. */
    public void stop() {
        running = false;
        thread.core().pollerChanged();
    }

    /** Posts an event the poller handles with {@code costPs} of work, then {@code done}. */
    public void post(long costPs, EventHandler done, int type, long arg) {
        thread.core().submitPolled(thread, costPs, done, type, arg, null);
    }

    /** Posts an event the poller handles with {@code costPs} of work, then completes {@code done}. */
    public void post(long costPs, Completion done, long value) {
        thread.core().submitPolled(thread, costPs, null, 0, value, done);
    }
}
