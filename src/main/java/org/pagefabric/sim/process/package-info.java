/**
 * Processes written as sequential code on top of the event-driven kernel: a {@link SimProcess}
 * runs a {@link ProcessBody} that sleeps and waits on {@link Completion}s through its
 * {@link ProcessContext}, suspended by a {@link Coroutine} ({@link ContinuationCoroutine} on
 * {@code jdk.internal.vm.Continuation}, or {@link ThreadHandoffCoroutine} on a virtual thread;
 * {@link ProcessImpl} chooses, and both give the same events). {@link SimLock} is a mutex between
 * simulated threads.
 *
 * <p>Layer: Simulation kernel. It may use only {@code org.pagefabric.sim} and its subpackages (it
 * uses {@code sim} and {@code sim.stat}), without a cycle between them.
 */
package org.pagefabric.sim.process;
