/**
 * JMH harnesses for the finest-grained costs, shipped in the jar for {@code pagefabric bench jmh}:
 * PHOLD events on the kernel and on the reference engine ({@link KernelHoldJmh}) and one process
 * suspend and resume ({@link ProcessResumeJmh}). JMH's annotation processor generates their
 * runners at build time.
 *
 * <p>Layer: Benchmarks. It may use every layer below the command line except the policy packages;
 * it uses {@code bench} and {@code sim.process}.
 */
package org.pagefabric.bench.jmh;
