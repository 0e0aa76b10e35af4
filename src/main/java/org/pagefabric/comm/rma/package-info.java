/**
 * Remote memory operations of light processes carried as datagrams over the simulated network
 * ({@link org.pagefabric.comm.rma.DatagramRma}), as seed 002 §5.2 emulates RMA at the scale of its
 * evaluation: the host's posts and completions and the target NIC's steps (its atomic unit,
 * {@link org.pagefabric.comm.rma.AtomicUnit}, DMA reads and writes), with their costs
 * ({@link org.pagefabric.comm.rma.DatagramCosts}) and per-operation state kept in primitive slots
 * ({@link org.pagefabric.comm.rma.Slots}). A workload says only what it sends and what its memory
 * does with what arrives.
 *
 * <p>Layer: Communication. It uses {@code sim}, {@code hw.net} and {@code hw.node}; the
 * {@code dht} and {@code aaapps} workloads build on it.
 */
package org.pagefabric.comm.rma;
