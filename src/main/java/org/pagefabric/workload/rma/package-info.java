/**
 * The costs of seed 002's applications on their emulated RMA
 * ({@link org.pagefabric.comm.rma.DatagramRma}) and of their schemes ({@link RmaCosts}), and the
 * give-up rule for operations whose datagram was lost ({@link StallWatch}).
 *
 * <p>Layer: Workloads. It may use every layer below it except the policy packages; it uses
 * {@code sim}, {@code config}, {@code hw.param} and {@code comm}, and the {@code dht} and
 * {@code aaapps} workloads build on it.
 */
package org.pagefabric.workload.rma;
