/**
 * The performance benchmarks behind {@code pagefabric bench} and docs/PERFORMANCE.md: the event
 * kernel against a {@code PriorityQueue} reference on PHOLD ({@link KernelBenchmark},
 * {@link KernelPhold}, {@link ReferencePhold}), a process's suspend and resume
 * ({@link ProcessResumeBench}), the simulated machine's speed and size ({@link ModelBenchmark}),
 * PART's fault path ({@link PartBenchmark}), the hashtable's growth with ranks
 * ({@link DhtBenchmark}) and the router topologies ({@link TopologyBench}).
 *
 * <p>Layer: Benchmarks, below only the command line. It may use every layer below it except the
 * policy packages (it uses {@code sim}, {@code config}, {@code hw}, {@code reg}, {@code workload}
 * and {@code experiment}).
 */
package org.pagefabric.bench;
