/**
 * Bounce buffers (seed 004 §3.3): each rank pins and registers a fixed set of buffers per peer
 * once ({@link BounceRegion}, {@link Channel}) and never registers user memory. A put is copied into
 * an outgoing buffer by the initiator's CPU, written into the target's matching incoming buffer
 * and copied out by the target's CPU ({@link org.pagefabric.reg.pinning.CpuCopy}); receives are matched in posting order
 * ({@link Mailbox}). {@link BounceBuffers} is the policy, {@link BounceProvider} its entry in the
 * registry and {@link BounceParameters} its costs.
 *
 * <p>Layer: Registration policies. It may use every layer below {@code comm} (here {@code sim},
 * {@code config}, {@code hw}, {@code endpoint}, {@code reg} and {@code reg.pinning}) but no other
 * policy package, and no class outside it names it: it is found through
 * {@code META-INF/services}.
 */
package org.pagefabric.reg.bounce;
