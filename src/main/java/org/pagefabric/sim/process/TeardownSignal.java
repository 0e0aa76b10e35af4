package org.pagefabric.sim.process;

/**
 * Thrown out of {@link Coroutine#suspend()} in a thread-backed body that is being
 * {@linkplain Coroutine#close() closed}, to unwind its stack so that its thread ends. Not a
 * failure of the body: {@link SimProcess} lets it pass instead of reporting it.
 */
final class TeardownSignal extends Error {
    private static final long serialVersionUID = 1L;

    /** Shared: the signal carries no information, and a stack trace would only cost time. */
    static final TeardownSignal INSTANCE = new TeardownSignal();

    private TeardownSignal() {
        super("process torn down", null, false, false);
    }
}
