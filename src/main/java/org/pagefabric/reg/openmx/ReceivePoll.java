package org.pagefabric.reg.openmx;

import java.util.Arrays;
import org.pagefabric.hw.cpu.Core;
import org.pagefabric.hw.cpu.Cpu;
import org.pagefabric.hw.cpu.InterruptController;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.Simulator;

/**
 * The Open-MX receive path of one core, NAPI style: a frame reaching it while it is idle starts
 * the NIC's interrupt coalescing timer ({@code openmx.recv.coalescing}); when it expires the NIC
 * raises its interrupt line to this core, whose handler (its entry and delivery are the CPU's
 * interrupt costs) starts the poll. Frames arriving meanwhile, or while earlier frames' bottom
 * halves are still queued or running, join that poll. So an isolated packet (a rendezvous, a
 * pull request) waits for the timer and pays an interrupt, and a stream of pull replies arriving
 * faster than the core handles them pays neither.
 *
 * <p>Work runs on the core as tasklets, in arrival order: each frame's bottom half, and the
 * actions that must follow the bottom halves of a message's frames (the driver acting on a
 * whole wire message).
 */
final class ReceivePoll implements EventHandler {
    private static final int TIMER = 0;
    private static final int FRAME_DONE = 1;
    private static final int ACTION = 2;
    private static final int HANDLER_DONE = 3;

    private final Simulator sim;
    private final Core core;
    private final InterruptController irqs;
    private final int line;
    private final long coalescingPs;
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

    /** The receive path of {@code core} of {@code cpu}, with its own interrupt line to that core. */
    ReceivePoll(Cpu cpu, Core core, long coalescingPs) {
        this.sim = cpu.simulator();
        this.core = core;
        this.irqs = cpu.interrupts();
        this.coalescingPs = coalescingPs;
        // the handler only schedules the poll: its time is the interrupt's entry cost
        this.line = irqs.register("omx-rx" + core.index(), core.index(), (t, a) -> 0, this, HANDLER_DONE);
    }

    /** One frame's bottom half of {@code costPs}. */
    void frame(long costPs) {
        if (raised) {
            hold(costPs, null);
            return;
        }
        if (backlog == 0) {
            raised = true;
            if (coalescingPs > 0) {
                sim.schedule(coalescingPs, Band.HARDWARE, this, TIMER, 0);
            } else {
                irqs.raise(line, 0);
            }
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
            case TIMER -> irqs.raise(line, 0);
            case HANDLER_DONE -> {
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
