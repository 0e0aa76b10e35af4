/**
 * A process's endpoint on its node and the job's layout: an {@link Endpoint} holds the address
 * space, communication segment, protection domain, completion queues and one connected queue pair
 * per peer, with its work requests in flight ({@link OutstandingRequests}); {@link JobLayout}
 * places one endpoint per rank on a cluster. {@link ActiveMessages} carries the handshakes and
 * barriers policies and workloads exchange, with its costs in {@link ActiveMessageParameters}.
 *
 * <p>Layer: Endpoint, above the hardware. It may use {@code sim}, {@code config} and {@code hw}
 * (it uses {@code hw.nic}, {@code hw.os}, {@code hw.node} and {@code hw.net}), never a
 * registration policy or anything that runs on one.
 */
package org.pagefabric.endpoint;
