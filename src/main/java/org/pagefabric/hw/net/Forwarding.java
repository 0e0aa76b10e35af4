package org.pagefabric.hw.net;

/**
 * Hop-by-hop routing in a switch: the output link for a packet, chosen from its destination.
 * Must not allocate: it runs for every packet at every hop.
 */
@FunctionalInterface
public interface Forwarding {
    /** The link {@code p} leaves on. */
    Link next(Packet p);
}
