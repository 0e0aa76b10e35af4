/**
 * The network between nodes: links with output queues ({@link Link}, {@link LinkFaults}),
 * output-queued switches ({@link Switch}), topologies from a full mesh and a star to fat trees,
 * tori, dragonflies, flattened butterflies and Cayley graphs ({@link Topology},
 * {@link Topologies}), recycled {@link Packet}s, and the reliable transport over them
 * ({@link ReliableSender}, {@link ReliableReceiver}, {@link TransportEndpoint}: go-back-N or
 * selective repeat, checksums, NACKs and time-outs). {@link NetworkEnergy} adds up the energy the
 * ports spent; {@link TransportBench} is the transport's speed benchmark.
 *
 * <p>Layer: Hardware. It may use {@code sim} and {@code config} and other hardware packages
 * without forming a cycle; it uses only {@code sim}, so a NIC, a host stack or a workload's
 * datagrams can all ride on it.
 */
package org.pagefabric.hw.net;
