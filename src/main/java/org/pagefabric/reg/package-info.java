/**
 * The registration API: {@link RegistrationPolicy}, the contract through which a rank makes its
 * memory reachable by the NIC, and what a policy declares about itself. A policy package lists a
 * {@link PolicyProvider} in {@code META-INF/services}; {@link PolicyRegistry} finds it and knows
 * each policy by its {@link PolicyDescriptor} (name, {@link Capability}s, profile parameters,
 * {@link Statistic}s); a workload reads what a policy publishes through typed {@link Metric}s and
 * the optional seams some policies offer ({@link OnDemandPaging}, {@link FaultTrace},
 * {@link InterruptPlacement}, {@link DmaBufRegistrar}). A combination a policy cannot carry ends
 * in a {@link PolicyRefusal}. {@link PerRank} and {@link SegmentRegionKeys} are the per-rank
 * state and segment-wide keys that several policies share.
 *
 * <p>Layer: Registration API, above the Active Access runtime. It may use {@code sim},
 * {@code config}, {@code hw}, {@code endpoint} and {@code active}; it never names a policy
 * package, which sit above it and are reached only through the registry.
 */
package org.pagefabric.reg;
