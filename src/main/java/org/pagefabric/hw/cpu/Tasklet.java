package org.pagefabric.hw.cpu;

import org.pagefabric.sim.EventHandler;

/**
 * Deferred interrupt work (Linux tasklet / softirq), run on one core above threads and below
 * interrupt handlers. As in Linux, scheduling a tasklet that is already scheduled and has not
 * started yet does nothing (it will run once and see everything queued by then); the pending
 * state clears when it starts, so scheduling it while it runs makes it run once more
 * afterwards.
 */
public final class Tasklet implements WorkBody {
    private final String name;
    private final Core core;
    private final WorkBody body;
    private final EventHandler done;
    private final int type;
    private boolean pending;
    private long scheduled;
    private long coalesced;

    /**
     * A tasklet on {@code core}.
     *
     * @param body asked for the run's cost when it starts (it drains its work then)
     * @param done called when a run ends, or null
     * @param type type given to {@code body} and {@code done}
     */
    public Tasklet(String name, Core core, WorkBody body, EventHandler done, int type) {
        if (body == null) {
            throw new IllegalArgumentException("tasklet " + name + " needs a body");
        }
        this.name = name;
        this.core = core;
        this.body = body;
        this.done = done;
        this.type = type;
    }

    /**
     * Schedules a run with {@code arg}, unless one is pending.
     *
     * @return whether a run was queued (false: coalesced into the pending one)
     */
    public boolean schedule(long arg) {
        if (pending) {
            coalesced++;
            return false;
        }
        pending = true;
        scheduled++;
        core.submit(Core.TASKLET, null, 0, this, done, type, arg, null);
        return true;
    }

    @Override
    public long begin(int t, long arg) {
        pending = false;
        return body.begin(t, arg);
    }

    /** Whether a run is queued and has not started. */
    public boolean isPending() {
        return pending;
    }

    /** Runs queued so far. */
    public long scheduledRuns() {
        return scheduled;
    }

    /** Schedule requests absorbed by a pending run. */
    public long coalesced() {
        return coalesced;
    }

    /** The tasklet's name. */
    public String name() {
        return name;
    }

    /** The core it runs on. */
    public Core core() {
        return core;
    }
}
