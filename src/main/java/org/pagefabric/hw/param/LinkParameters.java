package org.pagefabric.hw.param;

import org.pagefabric.config.Parameter;

/** Network links and switches. */
public final class LinkParameters {
    /** One-way propagation and PHY latency of a link, serialisation excluded. */
    public static final Parameter LATENCY = Parameter.time("link.latency",
            "One-way latency of a link (cable and PHY), serialisation time excluded.");
    /** Data rate of a link in each direction. */
    public static final Parameter BANDWIDTH = Parameter.bandwidth("link.bandwidth",
            "Data rate of a link in each direction (between groups of nodes when there are two tiers).");
    /** Data rate of links inside a group of directly connected nodes. */
    public static final Parameter BANDWIDTH_INTRA_GROUP = Parameter.bandwidth("link.bandwidth_intra_group",
            "Data rate of links inside a group of directly connected nodes (e.g. a board); equal to link.bandwidth on one tier.");
    /** Bytes of framing the link adds to every packet. */
    public static final Parameter PACKET_OVERHEAD = Parameter.size("link.packet_overhead",
            "Bytes of link-level framing added to every packet (preamble, link header, CRC).")
            .between("0 B", "4 KiB");
    /** Probability that a link corrupts or loses a packet. */
    public static final Parameter LOSS = Parameter.probability("link.loss",
            "Probability that a link corrupts or loses one packet (dropped at the receiver's CRC check).");
    /** Latency of one switch or router traversal. */
    public static final Parameter SWITCH_HOP_LATENCY = Parameter.time("switch.hop_latency",
            "Latency of one switch or router hop, cut-through, from head in to head out.");

    /** How the nodes are wired. */
    public static final Parameter TOPOLOGY = Parameter.choice("network.topology",
            "How nodes are wired: two_nodes (one link, exactly 2 nodes), full_mesh (a link per pair), star (one switch),"
                    + " torus3d, torus5d, hypercube, long-hop (one node per router), dragonfly, flattened-butterfly,"
                    + " fat-tree (several nodes per router); sizes follow from the node count.",
            "two_nodes", "full_mesh", "star", "torus3d", "torus5d", "hypercube", "dragonfly", "flattened-butterfly",
            "long-hop", "fat-tree");

    /** How the packets of a message move: each on its own, or as one train. */
    public static final Parameter MODEL = Parameter.choice("network.model",
            "How the back-to-back packets of one message move: packet (one event per packet per hop, the reference)"
                    + " or train (one event per message per hop, each packet still timed and counted on every link;"
                    + " loss or corruption on the links runs packets; docs/MACHINE.md, Two network models).",
            "packet", "train");

    private LinkParameters() {
    }
}
