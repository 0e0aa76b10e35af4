package org.pagefabric.hw.node;

import java.util.Objects;
import org.pagefabric.config.Profile;
import org.pagefabric.hw.net.LinkFaults;
import org.pagefabric.hw.net.NetCosts;
import org.pagefabric.hw.net.Network;
import org.pagefabric.hw.net.PacketPool;
import org.pagefabric.hw.net.Topology;
import org.pagefabric.hw.net.TransportConfig;
import org.pagefabric.sim.Simulator;

/**
 * A set of identical nodes on one network, every part built from one cost profile. The network
 * ({@code net}) is wired as {@code network.topology} says; node {@code i} is
 * {@code node<i>} at network address {@code i}.
 *
 * <pre>{@code
 * Cluster c = Cluster.build(new Simulator(seed), ProfileRegistry.load("part-forth"), 2);
 * Nic.connect(qpOn(c.node(0)), qpOn(c.node(1)), c.transport());
 * }</pre>
 */
public final class Cluster {
    /**
     * Packets the pool starts with. The pool grows on demand, so this only sizes the first
     * allocation; it is not a cost and does not change results.
     */
    private static final int INITIAL_PACKETS = 256;

    private final Simulator sim;
    private final Profile profile;
    private final Network network;
    private final TransportConfig transport;
    private final Node[] nodes;

    private Cluster(Simulator sim, Profile profile, Network network, TransportConfig transport, Node[] nodes) {
        this.sim = sim;
        this.profile = profile;
        this.network = network;
        this.transport = transport;
        this.nodes = nodes;
    }

    /**
     * Builds {@code nodes} nodes and the network, all parameters from {@code profile}; the
     * topology from {@code network.topology} ({@code two_nodes} requires {@code nodes == 2}).
     *
     * @throws org.pagefabric.config.ProfileException if a value cannot be used (named, with
     *         the file and line that set it), or the topology cannot hold {@code nodes} nodes
     */
    public static Cluster build(Simulator sim, Profile profile, int nodes) {
        Objects.requireNonNull(sim, "sim");
        Objects.requireNonNull(profile, "profile");
        // Every record is read (and validated) before anything is built, so a bad profile fails
        // without leaving half a cluster registered in the simulator.
        NodeSpec spec = NodeSpec.of(profile);
        TransportConfig transport = CostsFromProfile.transport(profile);
        Topology.Factory topology = CostsFromProfile.topology(profile, nodes);
        NetCosts netCosts = CostsFromProfile.net(profile);
        LinkFaults faults = CostsFromProfile.linkFaults(profile);
        org.pagefabric.hw.net.NetworkModel model = CostsFromProfile.networkModel(profile);
        // A packet carries at most one MTU of payload.
        Network network = new Network(sim, "net", new PacketPool(INITIAL_PACKETS, transport.mtuBytes()), netCosts,
                topology);
        network.setFaults(faults);
        network.setModel(model);
        Node[] built = new Node[nodes];
        for (int i = 0; i < nodes; i++) {
            built[i] = new Node(sim, i, spec, network);
        }
        return new Cluster(sim, profile, network, transport, built);
    }

    /** The simulator the cluster lives in. */
    public Simulator simulator() {
        return sim;
    }

    /** The profile every part was built from. */
    public Profile profile() {
        return profile;
    }

    /** Number of nodes. */
    public int size() {
        return nodes.length;
    }

    /** Node {@code i}, 0-based. */
    public Node node(int i) {
        Objects.checkIndex(i, nodes.length);
        return nodes[i];
    }

    /**
     * The largest datagram payload on this cluster's network, bytes: what one unreliable message
     * (a datagram put or a remote atomic's words) carries.
     */
    public int datagramCapacity() {
        return nodes[0].endpoint().datagramCapacity();
    }

    /** The network joining the nodes. */
    public Network network() {
        return network;
    }

    /** The reliable-connection parameters from the profile, for {@code Nic.connect}. */
    public TransportConfig transport() {
        return transport;
    }
}
