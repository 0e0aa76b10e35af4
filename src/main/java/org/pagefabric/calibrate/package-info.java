/**
 * Measurements of the running host for {@code pagefabric calibrate}: {@link Calibration} runs the
 * probes (an empty system call, page touches, mlock, madvise, mincore, transparent huge pages and
 * userfaultfd) through the Foreign Function &amp; Memory API ({@link Libc}, {@link Uffd}), with
 * every mapping they take released afterwards ({@link LiveMappings}), and {@link ProfileWriter}
 * turns what they measured into a profile that extends {@code default}, each value sourced as a
 * measurement on this host. A probe the host does not allow is skipped with its reason.
 *
 * <p>Layer: Calibration, below only the benchmarks and the command line. It may use every layer
 * below it except the policy packages, and uses only {@code config} and {@code hw.param}: it
 * measures the real machine, not the simulated one.
 */
package org.pagefabric.calibrate;
