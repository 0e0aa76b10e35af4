/**
 * Rendezvous with and without unpin (seed 004 §3.3, §4.2): nothing is pinned up front; before
 * each put an active-message handshake asks the target to pin the destination, which it unpins
 * afterwards or keeps ({@link KeptRanges}), and the initiator keeps its own sources pinned in a
 * bounded cache ({@link LocalPinCache}). {@link Rendezvous} is the policy,
 * {@link RendezvousProvider} its entry in the registry and {@link RendezvousParameters} its costs.
 *
 * <p>Layer: Registration policies. It may use every layer below {@code comm} (here {@code sim},
 * {@code config}, {@code endpoint}, {@code reg} and {@code reg.pinning}) but no other policy
 * package, and no class outside it names it: it is found through {@code META-INF/services}.
 */
package org.pagefabric.reg.rendezvous;
