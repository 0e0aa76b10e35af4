/**
 * A host TCP/IP stack over the simulated NIC used as an Ethernet adapter (seed 002 §5.1's
 * netperf streams between two machines with e1000 NICs): kernel frame buffers statically
 * pinned and mapped for DMA (through the IOMMU with {@code nic.iommu}), an interrupt throttled
 * NIC with a NAPI poll, per-frame protocol costs and user copies on the node's cores, and
 * sockets: {@link org.pagefabric.hw.stack.TcpSocket} (Reno-like congestion control,
 * cumulative and delayed acknowledgements, fast retransmit, time-outs) and
 * {@link org.pagefabric.hw.stack.UdpSocket} (datagrams, IP fragmentation, drops when the
 * receive buffer is full). Frames travel as unreliable datagrams of one UD queue pair per node;
 * reliability is TCP's own.
 */
package org.pagefabric.hw.stack;
