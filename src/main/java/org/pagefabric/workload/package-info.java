/**
 * What runs on a job: the microbenchmarks, the seeds' applications that need no scheme, and what
 * every workload is built on. A {@link Workload} declares its parameters
 * ({@link WorkloadParameter}, {@link StandardParameters}), the ranks and capabilities it needs and
 * the metric it is judged by, and is found through a {@link WorkloadProvider} in
 * {@code META-INF/services} by the {@link WorkloadRegistry}; application schemes (how 002's
 * applications move data) are found the same way ({@link SchemeProvider}, {@link SchemeRegistry}).
 * Shared helpers check transfers end to end ({@link DataCheck}, {@link CheckedTransfers}) and
 * tally computation and failures.
 *
 * <p>Layer: Workloads, above {@code comm}. ArchitectureTest lets it use every layer below except
 * the policy packages, which it reaches only through {@code reg}'s registry and interfaces.
 * DESIGN.md asks that workloads reach the machine through {@code comm} alone; those here that
 * post on {@code hw.nic} queue pairs themselves do not.
 */
package org.pagefabric.workload;
