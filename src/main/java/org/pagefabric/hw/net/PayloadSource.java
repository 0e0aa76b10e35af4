package org.pagefabric.hw.net;

/**
 * Where a sender reads DATA payload from when it builds a packet (the NIC's DMA read). Called
 * again for every retransmission, so a retransmission carries memory as it is then.
 */
@FunctionalInterface
public interface PayloadSource {
    /**
     * Fills the payload of {@code p} ({@code p.messageId}, {@code p.offset}, {@code p.length} are
     * set): either copy {@code p.length} bytes into {@code p.bytes} and set {@code p.hasBytes}, or
     * set {@code p.contentTag}. {@code p.bytes} has the pool's payload capacity: a pool for
     * byte payloads needs at least the MTU, one for tag-only traffic may have none.
     *
     * @return false if the read faulted: the packet is not sent, and the block's time-out
     *         recovers it (PART's source-side faults, seed 000 §III), unless {@link #stalls()}
     */
    boolean read(Packet p);

    /**
     * After {@link #read} returned false: whether the sender stalls on that packet until the
     * source calls {@link ReliableSender#resume()} (a device that waits for the page it asked the
     * OS for, PCIe PRI), rather than leaving it to the block's time-out. False by default.
     */
    default boolean stalls() {
        return false;
    }

    /**
     * After {@link #read} returned true: when the payload is available to leave (an IOMMU
     * translation still under way), or a time not after now if it already is. The sender holds
     * the packet, and its next one, until then.
     */
    default long readyAt() {
        return 0;
    }
}
