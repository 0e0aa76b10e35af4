/**
 * Remote memory operations of light processes carried as datagrams over the simulated network
 * ({@link DatagramRma}), as seed 002 §5.2 emulates RMA at the scale of its evaluation, with their
 * costs ({@link RmaCosts}), per-operation state kept in primitive slots ({@link Slots}) and the
 * give-up rule for operations whose datagram was lost ({@link StallWatch}).
 *
 * <p>Layer: Workloads. It may use every layer below it except the policy packages; it uses
 * {@code sim}, {@code config}, {@code hw.net}, {@code hw.param}, {@code hw.node} and
 * {@code endpoint}, and the {@code dht} and {@code aaapps} workloads build on it.
 */
package org.pagefabric.workload.rma;
