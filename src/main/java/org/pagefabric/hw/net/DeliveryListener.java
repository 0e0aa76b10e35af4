package org.pagefabric.hw.net;

/** Told at the receiver when every block of a message has been placed, in message order, once per message. */
@FunctionalInterface
public interface DeliveryListener {
    /**
     * Message {@code messageId} of {@code length} bytes is complete.
     *
     * @param opcode  the upper-layer operation the sender posted
     * @param address the upper-layer address the sender posted
     */
    void onDelivered(long messageId, long length, int opcode, long address);
}
