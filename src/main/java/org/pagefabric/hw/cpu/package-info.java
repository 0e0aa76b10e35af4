/**
 * A node's CPU ({@link Cpu}): cores that run one work item at a time ({@link Core}), threads
 * pinned to cores with context switches charged ({@link CpuThread}), polling threads, tasklets
 * and an interrupt controller that routes device interrupts ({@link InterruptController}), with
 * costs from the profile ({@link CpuCosts}).
 *
 * <p>Layer: Hardware. It may use {@code sim} and {@code config} and other hardware packages
 * without forming a cycle; it uses only {@code sim}, {@code sim.stat}, {@code sim.process} and
 * {@code sim.collect}.
 */
package org.pagefabric.hw.cpu;
