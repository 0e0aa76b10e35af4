package org.pagefabric.reg.openmx;

import java.util.Arrays;
import org.pagefabric.hw.cpu.Core;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.Simulator;

/**
 * The Open-MX receive path of one core, NAPI style: a frame reaching it while it is idle raises
 * the NIC's interrupt, and its bottom half starts {@code openmx.recv.interrupt} later; frames
 * arriving meanwhile, or while earlier frames' bottom halves are still queued or running, join
 * the same poll. So an isolated packet (a rendezvous, a pull request) waits for the interrupt,
 * and a stream of pull replies pays it once. The wait is latency, not work: the core stays free
 * for other work until the poll starts.
 *
 * <p>Work runs on the core as tasklets, in arrival order: each frame's bottom half, and the
 * actions that must follow the bottom halves of a message's frames (the driver acting on a
 * whole wire message).
 */
final class ReceivePoll implements EventHandler {
    private static final int FIRE = 0;
    private static final int FRAME_DONE = 1;
    private static final int ACTION = 2;

    private final Simulator sim;
    private final Core core;
    private final long interruptPs;
    /** Frames whose bottom half is queued on the core or running. */
    private int backlog;
    private boolean raised;
    /** Work that arrived between the interrupt being raised and firing: a cost, or an action (cost -1). */
    private long[] pendingCost = new long[16];
    private Runnable[] pendingAction = new Runnable[16];
    private int pending;
    /** Actions submitted to the core, oldest first (a ring). */
    private Runnable[] actions = new Runnable[16];
    private int actionHead;
    private int actionCount;

    ReceivePoll(Simulator sim, Core core, long interruptPs) {
        this.sim = sim;
        this.core = core;
        this.interruptPs = interruptPs;
    }

    /** One frame's bottom half of {@code costPs}. */
    void frame(long costPs) {
        if (raised) {
            hold(costPs, null);
            return;
        }
        if (backlog == 0 && interruptPs > 0) {
            raised = true;
            sim.schedule(interruptPs, Band.KERNEL, this, FIRE, 0);
            hold(costPs, null);
            return;
        }
        submitFrame(costPs);
    }

    /** Runs {@code action} on the core once the bottom halves of every frame received so far have run. */
    void after(Runnable action) {
        if (raised) {
            hold(-1, action);
        } else {
            submitAction(action);
        }
    }

    @Override
    public void handle(int type, long arg) {
        switch (type) {
            case FIRE -> {
                raised = false;
                for (int i = 0; i < pending; i++) {
                    if (pendingAction[i] != null) {
                        submitAction(pendingAction[i]);
                        pendingAction[i] = null;
                    } else {
                        submitFrame(pendingCost[i]);
                    }
                }
                pending = 0;
            }
            case FRAME_DONE -> backlog--;
            case ACTION -> {
                Runnable a = actions[actionHead];
                actions[actionHead] = null;
                actionHead = (actionHead + 1) % actions.length;
                actionCount--;
                a.run();
            }
            default -> throw new IllegalStateException("unknown receive poll event " + type);
        }
    }

    private void submitFrame(long costPs) {
        backlog++;
        core.submit(Core.TASKLET, null, costPs, null, this, FRAME_DONE, 0, null);
    }

    private void submitAction(Runnable action) {
        if (actionCount == actions.length) {
            Runnable[] grown = new Runnable[actions.length * 2];
            for (int i = 0; i < actionCount; i++) {
                grown[i] = actions[(actionHead + i) % actions.length];
            }
            actions = grown;
            actionHead = 0;
        }
        actions[(actionHead + actionCount) % actions.length] = action;
        actionCount++;
        // tasklets of one core run in submission order, so actions finish in the order of this ring
        core.submit(Core.TASKLET, null, 0, null, this, ACTION, 0, null);
    }

    private void hold(long costPs, Runnable action) {
        if (pending == pendingCost.length) {
            pendingCost = Arrays.copyOf(pendingCost, pending * 2);
            pendingAction = Arrays.copyOf(pendingAction, pending * 2);
        }
        pendingCost[pending] = costPs;
        pendingAction[pending] = action;
        pending++;
    }
}
