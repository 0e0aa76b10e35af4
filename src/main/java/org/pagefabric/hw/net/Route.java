package org.pagefabric.hw.net;

import java.util.Arrays;

/**
 * The links a packet crosses from its source node to its destination node, in order. Between
 * two links there is a switch; the last link ends at the destination node. Torus
 * (dimension-order) and dragonfly (minimal or Valiant) routing are sequences of hops like any
 * other.
 */
public final class Route {
    private final Link[] hops;

    /** A route over at least one link. */
    public Route(Link... hops) {
        if (hops.length == 0) {
            throw new IllegalArgumentException("a route needs at least one link");
        }
        this.hops = hops.clone();
    }

    /** Number of links. */
    public int length() {
        return hops.length;
    }

    /** The {@code i}-th link, from 0. */
    public Link hop(int i) {
        return hops[i];
    }

    /** The sum of the links' latencies plus {@code switchHopLatencyPs} per switch: the unloaded latency before serialization. */
    public long propagationPs(long switchHopLatencyPs) {
        long t = (hops.length - 1) * switchHopLatencyPs;
        for (Link l : hops) {
            t += l.params().latencyPs();
        }
        return t;
    }

    @Override
    public String toString() {
        return Arrays.toString(Arrays.stream(hops).map(Link::name).toArray());
    }
}
