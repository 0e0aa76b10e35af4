package org.pagefabric.hw.net;

/**
 * How the packets of a message move through the network ({@code network.model}).
 *
 * <p>{@link #PACKET} is the reference: one event per packet per hop. {@link #TRAIN} moves the
 * back-to-back packets of one message (a sender hands them over together, e.g. the datagrams of
 * a get's reply) as one train: one event per train per hop, each packet still taking its own
 * serialization time on every link, so a link's busy time, its bytes and packets, a switch's
 * forwards and the energy per hop are what packets give. Where the two differ, and why: docs/MACHINE.md,
 * "Two network models".
 */
public enum NetworkModel {
    /** One event per packet per hop: the reference. */
    PACKET,
    /** One event per train of back-to-back packets of a message per hop. */
    TRAIN;

    /** The model named {@code name} ({@code packet} or {@code train}). */
    public static NetworkModel of(String name) {
        return switch (name) {
            case "packet" -> PACKET;
            case "train" -> TRAIN;
            default -> throw new IllegalArgumentException("network.model: '" + name + "'; valid: packet, train");
        };
    }
}
