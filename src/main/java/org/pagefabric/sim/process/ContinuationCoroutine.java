package org.pagefabric.sim.process;

import jdk.internal.vm.Continuation;
import jdk.internal.vm.ContinuationScope;

/**
 * A coroutine on {@code jdk.internal.vm.Continuation}: the body runs on the thread that calls
 * {@link #resume()} (the simulator's), and {@link #suspend()} is a continuation yield, so a
 * round trip costs no thread switch and, once the continuation's stack chunk is sized, no
 * allocation.
 *
 * <p>Needs {@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED}; without it, linking
 * this class fails with {@link IllegalAccessError}, which {@link ProcessImpl} detects.
 *
 * <p>Pinning: a continuation cannot yield while a native frame is on the body's stack (a JNI
 * call or FFM upcall that calls back into the body), nor inside a
 * {@code Continuation.pin()} critical section; on JDKs before 24 a held monitor
 * ({@code synchronized}) pins as well. A suspension attempted then fails with an
 * {@link IllegalStateException} that names the reason, instead of the JDK's terse one.
 */
final class ContinuationCoroutine implements Coroutine {
    /** One scope for all processes: a yield always returns to the nearest resume(). */
    private static final ContinuationScope SCOPE = new ContinuationScope("pagefabric-process");

    private final PinReporting continuation;
    private Thread carrier;
    private boolean mounted;
    private boolean closed;

    ContinuationCoroutine(String name, Runnable body) {
        this.continuation = new PinReporting(name, body);
    }

    @Override
    public void resume() {
        if (closed || continuation.isDone()) {
            throw new IllegalStateException(continuation.name + ": coroutine has ended");
        }
        if (mounted) {
            throw new IllegalStateException(continuation.name + ": coroutine is already running");
        }
        carrier = Thread.currentThread();
        mounted = true;
        try {
            continuation.run();
        } finally {
            mounted = false;
        }
    }

    @Override
    public void suspend() {
        if (!inBody()) {
            throw new IllegalStateException(continuation.name + ": suspend() called from outside its body");
        }
        Continuation.yield(SCOPE);
    }

    @Override
    public boolean inBody() {
        // While mounted, everything on the carrier thread runs inside the body: resume() is
        // below it on the stack and the simulator does nothing else until it returns.
        return mounted && Thread.currentThread() == carrier;
    }

    @Override
    public boolean isDone() {
        return closed || continuation.isDone();
    }

    /** A suspended continuation holds no thread: dropping it is enough, its finally blocks never run. */
    @Override
    public void close() {
        if (inBody()) {
            throw new IllegalStateException(continuation.name + ": a process cannot close itself");
        }
        closed = true;
    }

    /** Whether this JVM lets the application use continuations: runs a body that yields once. */
    static boolean selfTest() {
        int[] steps = new int[1];
        ContinuationCoroutine[] self = new ContinuationCoroutine[1];
        self[0] = new ContinuationCoroutine("self-test", () -> {
            steps[0]++;
            self[0].suspend();
            steps[0]++;
        });
        self[0].resume();
        boolean suspended = steps[0] == 1 && !self[0].isDone();
        self[0].resume();
        return suspended && steps[0] == 2 && self[0].isDone();
    }

    private static final class PinReporting extends Continuation {
        final String name;

        PinReporting(String name, Runnable body) {
            super(SCOPE, body);
            this.name = name;
        }

        @Override
        protected void onPinned(Continuation.Pinned reason) {
            String why = switch (reason) {
                case NATIVE -> "a native frame (JNI call or FFM upcall) is on its stack";
                case MONITOR -> "it holds a monitor (synchronized), which pins continuations before JDK 24";
                case CRITICAL_SECTION -> "it is inside a Continuation.pin() critical section";
                default -> "reason " + reason;
            };
            throw new IllegalStateException(name + " cannot suspend here: its continuation is pinned because "
                    + why + "; wait or sleep outside that region");
        }
    }
}
