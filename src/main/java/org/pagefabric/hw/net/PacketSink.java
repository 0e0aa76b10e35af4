package org.pagefabric.hw.net;

/**
 * Where a receiver places DATA packets: the NIC's DMA path (translation, IOMMU, memory), or a
 * test buffer. Called once per new (not duplicate, not corrupt, in-window) packet.
 */
@FunctionalInterface
public interface PacketSink {
    /**
     * Places the packet's payload ({@code p.offset}, {@code p.length}, bytes or tag) or refuses
     * it. The packet is only lent: copy what is needed before returning. The same packet may be
     * offered again later (a retransmission) after a refusal, and must be placed idempotently,
     * since a retransmitted block rewrites packets that had been placed.
     */
    SinkVerdict accept(Packet p);
}
