/**
 * Remote memory operations of light processes carried as datagrams over the simulated network
 * ({@link org.pagefabric.comm.rma.DatagramRma}), as seed 002 §5.2 emulates RMA at the scale of its
 * evaluation: what a process calls, its host-side costs ({@link org.pagefabric.comm.rma.DatagramCosts})
 * and completions. The NICs' steps in between (atomic unit, DMA reads and writes, the datagrams)
 * are {@link org.pagefabric.hw.nic.DatagramRmaUnit}'s. A workload says only what it sends and
 * what its memory does with what arrives.
 *
 * <p>Layer: Communication. It uses {@code sim}, {@code hw.nic}, {@code hw.net} and
 * {@code hw.node}; the {@code dht} and {@code aaapps} workloads build on it.
 */
package org.pagefabric.comm.rma;
