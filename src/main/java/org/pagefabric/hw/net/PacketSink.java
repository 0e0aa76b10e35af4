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

    /**
     * After {@link #accept} returned {@link SinkVerdict#ACCEPT}: when the packet's data reaches
     * memory (an IOMMU translation still under way), or a time not after now if it already has.
     * The receiver sends no acknowledgement of the packet and delivers no message it ends before
     * then. Times a sink returns never decrease (its DMA writes reach memory in order).
     */
    default long placedAt() {
        return 0;
    }
}
