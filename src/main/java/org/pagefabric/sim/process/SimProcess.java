package org.pagefabric.sim.process;

import java.util.ArrayList;
import java.util.List;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.SimulationException;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;

/**
 * An application process (an MPI rank, a benchmark client) written as sequential code: its
 * {@link ProcessBody} sleeps and waits on {@link Completion}s, while the hardware it talks to
 * stays event-driven.
 *
 * <p>Determinism: a process runs only from its own events, all in
 * {@link Band#APPLICATION}: its start, the end of a sleep, a yield, or the wake-up a
 * {@link Completion} schedules. Between two suspensions the body runs alone on the simulation
 * and its effects (scheduling, completing) happen in program order, so a run is determined by
 * the event order, whichever {@link ProcessImpl} carries the body.
 *
 * <p>Deadlock: when {@link Simulator#run()} returns because no event is left, a process still
 * waiting on a completion simply stays suspended; {@link #waiting(Simulator)} lists such
 * processes and {@link #checkNoDeadlock(Simulator)} turns them into an error. Processes that
 * will never run again should be {@linkplain #close() closed} (or all at once with
 * {@link #closeAll(Simulator)}): a thread-backed process otherwise keeps a parked (daemon,
 * virtual) thread.
 *
 * <p>The process is also the {@link org.pagefabric.sim.EventHandler} of its resume events, so
 * traces and errors name it and a resume allocates nothing: the event's {@code arg} carries the
 * value a completion was completed with.
 */
public final class SimProcess extends Component implements AutoCloseable {
    private boolean daemon;
    /** Lifecycle of a process. */
    public enum State {
        /** Created, {@link #start()} not called. */
        NEW,
        /** A resume event is scheduled: started, sleeping, yielding, or woken by a completion. */
        READY,
        /** The body is executing. */
        RUNNING,
        /** Suspended on a completion that has not completed. */
        WAITING,
        /** The body returned. */
        FINISHED,
        /** The body threw; the exception surfaced from the simulator. */
        FAILED,
        /** Closed before it ended. */
        CLOSED
    }

    /** Event types of resume events, distinct so that traces show why a process ran. */
    static final int START = 0;
    static final int SLEEP_OVER = 1;
    static final int YIELDED = 2;
    static final int COMPLETED = 3;

    private final ProcessImpl impl;
    private final ProcessBody body;
    private final ProcessContext context;
    private final Coroutine coroutine;
    private final Completion finished;

    private State state = State.NEW;
    private long pendingResume = Simulator.NO_EVENT;
    private long resumeValue;
    private Completion waitingOn;
    private Throwable failure;
    /** Link in the waiter list of {@link #waitingOn}; owned by {@link Completion}. */
    SimProcess nextWaiter;

    /** A top-level process with the {@linkplain ProcessImpl#selected() selected} implementation. */
    public SimProcess(Simulator sim, String name, ProcessBody body) {
        this(sim, null, name, ProcessImpl.selected(), body);
    }

    /** A process named {@code parent.localName}, e.g. {@code node3.rank0}. */
    public SimProcess(Simulator sim, Component parent, String localName, ProcessBody body) {
        this(sim, parent, localName, ProcessImpl.selected(), body);
    }

    /**
     * A process with an explicit implementation.
     *
     * @param parent the enclosing component, or {@code null} for a top-level process
     */
    public SimProcess(Simulator sim, Component parent, String localName, ProcessImpl impl, ProcessBody body) {
        // Validate before super(), which registers the name: a rejected process must not
        // leave its name taken.
        if (body == null || impl == null) {
            throw new IllegalArgumentException("null body or implementation");
        }
        impl.requireAvailable();
        super(sim, parent, localName);
        this.impl = impl;
        this.body = body;
        this.context = new ProcessContext(this);
        this.coroutine = impl.newCoroutine(name(), this::runBody);
        this.finished = new Completion(name() + ".finished");
    }

    /** Starts the body now (after the events already due at this instant in lower bands). */
    public void start() {
        start(0L);
    }

    /**
     * Starts the body after {@code delay} picoseconds, in {@link Band#APPLICATION}.
     *
     * @throws IllegalStateException if already started
     */
    public void start(long delay) {
        if (state != State.NEW) {
            throw new IllegalStateException(name() + " was already started (" + state + ")");
        }
        pendingResume = sim.schedule(delay, Band.APPLICATION, this, START, 0L);
        state = State.READY;
    }

    /** The lifecycle state. */
    public State state() {
        return state;
    }

    /** Whether the body has returned. */
    public boolean isFinished() {
        return state == State.FINISHED;
    }

    /** Completes (with value 0) when the body returns: other processes join with {@code ctx.await(p.finished())}. */
    public Completion finished() {
        return finished;
    }

    /** What the body threw, or {@code null}. */
    public Throwable failure() {
        return failure;
    }

    /** The completion this process waits on, or {@code null} if it is not {@link State#WAITING}. */
    public Completion waitingOn() {
        return state == State.WAITING ? waitingOn : null;
    }

    /** The implementation carrying the body. */
    public ProcessImpl impl() {
        return impl;
    }

    /** Resumes the body; only the simulator calls this, with one of the process's own events. */
    @Override
    public void handle(int type, long arg) {
        // Reject a direct call (or a stale event): a process must only run from its own
        // pending resume event, which the kernel has released by the time it dispatches it.
        if (state != State.READY || sim.isPending(pendingResume)) {
            throw new IllegalStateException(name() + " resumed outside its own resume event (state " + state + ")");
        }
        pendingResume = Simulator.NO_EVENT;
        resumeValue = arg;
        state = State.RUNNING;
        coroutine.resume();
        if (state != State.RUNNING) {
            return; // suspended: sleep, yieldNow or await set the state and the wake-up
        }
        if (failure != null) {
            state = State.FAILED;
            throw new SimulationException("process " + name() + " failed at " + Time.format(sim.now())
                    + ": " + failure, failure);
        }
        state = State.FINISHED;
        finished.complete();
    }

    private void runBody() {
        try {
            body.run(context);
        } catch (TeardownSignal s) {
            throw s;
        } catch (Throwable t) {
            // Handed to handle(), which raises it on the simulator thread whatever the
            // implementation: a thread-backed body must not die with it on its own thread.
            failure = t;
        }
    }

    // ---- called by ProcessContext, from inside the body --------------------------------------

    boolean inBody() {
        return state == State.RUNNING && coroutine.inBody();
    }

    void sleep(long delay) {
        pendingResume = sim.schedule(delay, Band.APPLICATION, this, delay == 0 ? YIELDED : SLEEP_OVER, 0L);
        state = State.READY;
        suspend();
    }

    long await(Completion c) {
        if (c.isDone()) {
            return c.value();
        }
        waitingOn = c;
        c.addWaiter(this);
        state = State.WAITING;
        suspend();
        return resumeValue;
    }

    private void suspend() {
        try {
            coroutine.suspend();
        } catch (IllegalStateException pinned) {
            // The continuation could not yield and is still running the body: undo the wake-up
            // so that the body's failure leaves no stray event or waiter behind.
            undoSuspend();
            state = State.RUNNING;
            throw pinned;
        }
    }

    private void undoSuspend() {
        if (pendingResume != Simulator.NO_EVENT) {
            sim.cancel(pendingResume);
            pendingResume = Simulator.NO_EVENT;
        }
        if (waitingOn != null && state == State.WAITING) {
            waitingOn.removeWaiter(this);
        }
        waitingOn = null;
    }

    /** Called by {@link Completion#complete(long)} for each waiter. */
    void wake(long value) {
        waitingOn = null;
        pendingResume = sim.schedule(0L, Band.APPLICATION, this, COMPLETED, value);
        state = State.READY;
    }

    // ---- teardown and deadlock detection -------------------------------------------------------

    /**
     * Ends a process that has not ended: its pending resume is cancelled, it leaves the
     * completion it waits on, and its thread (if any) is unwound and joined. A continuation's
     * suspended stack is dropped without running its {@code finally} blocks. Closing an ended
     * process does nothing.
     *
     * @throws IllegalStateException if called by the process's own body
     */
    @Override
    public void close() {
        if (state == State.RUNNING) {
            throw new IllegalStateException(name() + " cannot be closed while its body runs");
        }
        if (state == State.FINISHED || state == State.FAILED || state == State.CLOSED) {
            coroutine.close();
            return;
        }
        undoSuspend();
        state = State.CLOSED;
        coroutine.close();
    }

    /**
     * Marks this process as a daemon: a server that waits for requests forever (an
     * active-message handler loop). Deadlock detection ignores it.
     *
     * @return this process
     */
    public SimProcess daemon() {
        this.daemon = true;
        return this;
    }

    /** Whether this process is a daemon. */
    public boolean isDaemon() {
        return daemon;
    }

    /** The processes of {@code sim} suspended on a completion, in creation order, daemons excepted. */
    public static List<SimProcess> waiting(Simulator sim) {
        List<SimProcess> out = new ArrayList<>();
        for (Component c : sim.components()) {
            if (c instanceof SimProcess p && p.state == State.WAITING && !p.daemon) {
                out.add(p);
            }
        }
        return out;
    }

    /**
     * Fails if the simulation is deadlocked: no event is pending, yet processes wait on
     * completions that nothing can complete any more.
     *
     * @throws SimulationException naming each waiting process and what it waits on
     */
    public static void checkNoDeadlock(Simulator sim) {
        if (sim.pendingEvents() > 0) {
            return;
        }
        String report = waitReport(sim);
        if (report != null) {
            throw new SimulationException(report);
        }
    }

    /**
     * What the deadlocked processes of {@code sim} wait on: "deadlock at T: no event is pending,
     * yet N process(es) wait: P on C; ...", or null when no process waits.
     */
    public static String waitReport(Simulator sim) {
        List<SimProcess> stuck = waiting(sim);
        if (stuck.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder("deadlock at ").append(Time.format(sim.now()))
                .append(": no event is pending, yet ").append(stuck.size()).append(" process(es) wait:");
        for (SimProcess p : stuck) {
            sb.append(' ').append(p.name()).append(" on ").append(p.waitingOn).append(';');
        }
        sb.setLength(sb.length() - 1);
        return sb.toString();
    }

    /** {@linkplain #close() Closes} every process of {@code sim}. */
    public static void closeAll(Simulator sim) {
        for (Component c : sim.components()) {
            if (c instanceof SimProcess p) {
                p.close();
            }
        }
    }

    ProcessContext context() {
        return context;
    }

    Coroutine coroutine() {
        return coroutine;
    }
}
