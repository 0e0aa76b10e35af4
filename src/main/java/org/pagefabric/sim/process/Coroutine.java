package org.pagefabric.sim.process;

/**
 * The adapter between {@link SimProcess} and the mechanism that lets a body suspend in the
 * middle of its stack: {@link ProcessImpl#CONTINUATION} (a {@code jdk.internal.vm.Continuation}
 * run on the simulator thread) or {@link ProcessImpl#THREAD} (a virtual thread with a strict
 * hand-off).
 *
 * <p>Contract, identical for every implementation so that a simulation cannot tell them apart:
 * <ul>
 *   <li>at most one of the caller of {@link #resume()} and the body runs at any moment, and
 *       control moves only at {@link #resume()} and {@link #suspend()}: all effects of the
 *       body happen inside a {@code resume()} call, in program order;</li>
 *   <li>a body that throws ends the coroutine, and {@code resume()} rethrows the exception;</li>
 *   <li>a coroutine is not thread-safe: {@code resume()} and {@code close()} are called by
 *       one thread at a time (the simulator's).</li>
 * </ul>
 */
public interface Coroutine extends AutoCloseable {
    /**
     * Runs the body from its start or from where it last suspended, until it suspends again or
     * ends.
     *
     * @throws IllegalStateException if the coroutine has ended, been closed, or is running
     */
    void resume();

    /**
     * Called by the body: gives control back to the caller of {@link #resume()}, and returns
     * when the coroutine is resumed next.
     *
     * @throws IllegalStateException if called from outside the body, or if the body cannot
     *                               suspend here (a continuation pinned by a native frame)
     */
    void suspend();

    /** Whether the calling code runs inside this coroutine's body right now. */
    boolean inBody();

    /** Whether the body has ended (returned, thrown, or been torn down by {@link #close()}). */
    boolean isDone();

    /**
     * Releases a coroutine that has not ended: afterwards it never runs again. For a thread
     * implementation this unwinds the suspended body so that no thread outlives it. Closing an
     * ended coroutine does nothing.
     *
     * @throws IllegalStateException if called from the body itself
     */
    @Override
    void close();
}
