/**
 * The baseline policy ({@code pin-all}): {@link PinEverything} pins and registers each rank's
 * whole communication segment once, at start, as MPI and GASNet do with a pre-registered segment,
 * so no operation costs anything and the segment stays pinned for the whole run.
 * {@link PinProvider} is its entry in the registry.
 *
 * <p>Layer: Registration policies. It may use every layer below {@code comm} (here {@code config},
 * {@code hw}, {@code endpoint}, {@code reg} and {@code reg.pinning}) but no other policy package,
 * and no class outside it names it: it is found through {@code META-INF/services}.
 */
package org.pagefabric.reg.pin;
