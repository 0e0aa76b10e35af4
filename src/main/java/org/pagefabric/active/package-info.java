/**
 * The Active Access programming model (seed 002 §3-4): {@code assocPage(addr, actions, handler)}
 * marks a page of a process so that the IOMMU logs the puts and gets that reach it, and the
 * handler runs on the target node's cores for each logged access, with local synchronization
 * only; {@code put}, {@code get} and {@code flush} are the initiator's side. The hardware is in
 * {@link org.pagefabric.hw.iommu.aa}.
 */
package org.pagefabric.active;
