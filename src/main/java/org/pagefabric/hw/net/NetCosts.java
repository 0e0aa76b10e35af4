package org.pagefabric.hw.net;

/**
 * The costs a topology is built from. Values come from a cost profile (with their provenance);
 * the model code holds none.
 *
 * @param link               every link of the topology, each direction alike
 * @param switchHopLatencyPs time from a packet's last bit arriving at a switch input to the
 *                           packet being offered to its output port, in picoseconds (routing
 *                           and crossbar; queueing at the output port comes on top)
 * @param headerBytes        bytes on the wire per packet beyond its payload (link framing,
 *                           routing and transport headers, CRC), in bytes; control packets
 *                           (ACK, NACK, retransmission requests) are this size
 */
public record NetCosts(LinkParams link, long switchHopLatencyPs, int headerBytes) {
    /** Validates the parameters. */
    public NetCosts {
        if (link == null) {
            throw new IllegalArgumentException("net costs need link parameters");
        }
        if (switchHopLatencyPs < 0) {
            throw new IllegalArgumentException("switchHopLatencyPs must be >= 0, got " + switchHopLatencyPs);
        }
        if (headerBytes < 0) {
            throw new IllegalArgumentException("headerBytes must be >= 0, got " + headerBytes);
        }
    }
}
