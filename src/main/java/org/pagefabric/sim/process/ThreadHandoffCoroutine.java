package org.pagefabric.sim.process;

import java.util.concurrent.locks.LockSupport;

/**
 * A coroutine on a virtual thread of its own, for JVMs that do not export
 * {@code jdk.internal.vm}. Determinism comes from a strict hand-off: one volatile word says
 * whose turn it is, and each side parks until the turn is its own, so the simulator thread and
 * the body never run at the same time and every write of one side happens-before the other
 * side continues. A round trip costs two thread wake-ups (microseconds, not nanoseconds).
 *
 * <p>Threads are virtual, hence daemons: a process left suspended never keeps the JVM alive.
 * {@link #close()} still unwinds a suspended body (its {@code suspend()} throws an internal
 * {@link Error}, so its {@code finally} blocks run) and joins the thread, so that a test or a
 * long program that creates many simulations leaks no threads.
 */
final class ThreadHandoffCoroutine implements Coroutine {
    private static final int SIMULATOR = 0;
    private static final int BODY = 1;

    private final String name;
    private final Runnable body;
    private volatile int turn = SIMULATOR;
    private volatile boolean tearingDown;
    private volatile boolean done;
    private volatile Thread resumer;
    /** What escaped the body, handed to the resumer to rethrow as Continuation.run() would. */
    private RuntimeException escapedRuntime;
    private Error escapedError;
    private Thread thread;

    ThreadHandoffCoroutine(String name, Runnable body) {
        this.name = name;
        this.body = body;
    }

    @Override
    public void resume() {
        if (done) {
            throw new IllegalStateException(name + ": coroutine has ended");
        }
        if (turn != SIMULATOR || inBody()) {
            throw new IllegalStateException(name + ": coroutine is already running");
        }
        resumer = Thread.currentThread();
        if (thread == null) {
            thread = Thread.ofVirtual().name(name).unstarted(this::threadMain);
            turn = BODY;
            thread.start();
        } else {
            turn = BODY;
            LockSupport.unpark(thread);
        }
        awaitTurn(SIMULATOR);
        RuntimeException r = escapedRuntime;
        Error e = escapedError;
        escapedRuntime = null;
        escapedError = null;
        if (e != null) {
            throw e;
        }
        if (r != null) {
            throw r;
        }
    }

    @Override
    public void suspend() {
        if (!inBody()) {
            throw new IllegalStateException(name + ": suspend() called from outside its body");
        }
        if (tearingDown) {
            // A finally block that waits again while being unwound: keep unwinding, since
            // handing the turn back would leave close() joining a parked thread.
            throw TeardownSignal.INSTANCE;
        }
        turn = SIMULATOR;
        LockSupport.unpark(resumer);
        awaitTurn(BODY);
        if (tearingDown) {
            throw TeardownSignal.INSTANCE;
        }
    }

    private void awaitTurn(int side) {
        // park() may return spuriously or on interrupt: the turn word alone decides.
        while (turn != side) {
            LockSupport.park(this);
        }
    }

    private void threadMain() {
        try {
            body.run();
        } catch (TeardownSignal expected) {
            // close() unwound the body: nothing to report.
        } catch (RuntimeException e) {
            if (!tearingDown) {
                escapedRuntime = e;
            }
        } catch (Error e) {
            if (!tearingDown) {
                escapedError = e;
            }
        } finally {
            done = true;
            turn = SIMULATOR;
            LockSupport.unpark(resumer);
        }
    }

    @Override
    public boolean inBody() {
        return Thread.currentThread() == thread && turn == BODY;
    }

    @Override
    public boolean isDone() {
        return done;
    }

    @Override
    public void close() {
        if (inBody()) {
            throw new IllegalStateException(name + ": a process cannot close itself");
        }
        if (done) {
            if (thread != null) {
                joinUninterruptibly(thread); // it has handed back and is only returning
            }
            return;
        }
        if (thread == null) {
            done = true;
            return;
        }
        tearingDown = true;
        resumer = Thread.currentThread();
        turn = BODY;
        LockSupport.unpark(thread);
        awaitTurn(SIMULATOR);
        joinUninterruptibly(thread);
    }

    private static void joinUninterruptibly(Thread t) {
        boolean interrupted = false;
        while (t.isAlive()) {
            try {
                t.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    /** The body's thread, or {@code null} before the first resume; for leak tests. */
    Thread thread() {
        return thread;
    }
}
