/**
 * The discrete-event kernel: {@link Simulator} runs events in the total order (time,
 * {@link Band}, sequence number) over integer picoseconds ({@link Time}). Pending events are two
 * primitive words in a {@link FutureEventSet} ({@link QuaternaryHeap}, {@link EventSlab},
 * {@link EventLane}) addressed to {@link EventHandler}s by small ids ({@link HandlerTable}), so
 * the loop does not allocate per event. {@link Component}s are named hierarchically, and the name
 * seeds each one's {@link RandomStream}; {@link RollingHashTracer} fingerprints a run and
 * {@link ParallelRuns} runs independent simulations side by side.
 *
 * <p>Layer: Simulation kernel, the bottom layer. It may use only its own subpackages (it uses
 * {@code sim.stat}) and knows nothing of hardware, policies or workloads.
 */
package org.pagefabric.sim;
