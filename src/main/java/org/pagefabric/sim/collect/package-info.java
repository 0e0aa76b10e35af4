/**
 * Primitive collections for hot paths that must neither box nor allocate per element:
 * {@link IntDeque} (a run queue that takes items back at its head), {@link LongQuadQueue} (a ring
 * of four-long records), and maps kept in key order over parallel arrays ({@link LongSortedMap},
 * {@link LongLongSortedMap}, sharing {@link SortedLongKeys}), and {@link Slots}, operations in
 * flight between an event's scheduling and its handling.
 *
 * <p>Layer: Simulation kernel. It uses nothing of PageFabric, so any layer may use it.
 */
package org.pagefabric.sim.collect;
