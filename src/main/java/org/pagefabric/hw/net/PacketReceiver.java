package org.pagefabric.hw.net;

/** Something a link delivers packets to: a switch, or the network's node delivery. */
@FunctionalInterface
public interface PacketReceiver {
    /**
     * Takes a packet that has fully arrived. The packet belongs to the receiver from now on: it
     * forwards it or releases it to its {@link PacketPool}.
     */
    void receive(Packet packet);
}
