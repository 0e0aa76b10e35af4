package org.pagefabric.hw.net;

import org.pagefabric.sim.Component;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.stat.Counter;

/**
 * The fabric between nodes: a {@link Topology} of links and switches, the packet pool they
 * share, and one attached {@link PacketReceiver} per node (its NIC, or a
 * {@link TransportEndpoint}).
 *
 * <p>{@link #send} stamps the wire size and the route and hands the packet to the first link;
 * packets reaching their last link's end are delivered to the destination node's receiver. A
 * packet addressed to its own node never touches a link: it is delivered by a zero-delay event
 * (a NIC that charges for loopback delays it before sending).
 */
public final class Network extends Component implements PacketReceiver {
    private static final int LOOPBACK = 1;
    private static final int DELIVER_TRAIN = 2;

    private final PacketPool pool;
    private final NetCosts costs;
    private final Topology topology;
    private final PacketReceiver[] nodes;
    private final Counter undeliverable;
    private final Counter nicPackets;
    private final Counter nicBytes;
    private NetworkModel model = NetworkModel.PACKET;
    private boolean faulty;

    /** A network named {@code name} whose topology {@code factory} builds from {@code costs}. */
    public Network(Simulator sim, String name, PacketPool pool, NetCosts costs, Topology.Factory factory) {
        super(sim, name);
        this.pool = pool;
        this.costs = costs;
        this.undeliverable = counter("undeliverable", "packets", "packets for a node with nothing attached");
        this.nicPackets = counter("nicPackets", "packets", "packets through endpoint NIC ports, sent plus received"
                + " (loopback excluded)");
        this.nicBytes = counter("nicBytes", "bytes", "wire bytes through endpoint NIC ports, sent plus received"
                + " (loopback excluded)");
        this.topology = factory.build(this, costs);
        this.nodes = new PacketReceiver[topology.nodeCount()];
    }

    /** Attaches the receiver of everything addressed to {@code node}. */
    public void attach(int node, PacketReceiver receiver) {
        checkNode(node);
        if (nodes[node] != null) {
            throw new IllegalStateException("node " + node + " already has a receiver attached");
        }
        nodes[node] = receiver;
    }

    /** The packet pool every component of this network uses. */
    public PacketPool pool() {
        return pool;
    }

    /** The costs the topology was built from. */
    public NetCosts costs() {
        return costs;
    }

    /** The topology. */
    public Topology topology() {
        return topology;
    }

    /** Sets loss and corruption on every link. */
    public void setFaults(LinkFaults faults) {
        for (Link l : topology.links()) {
            l.setFaults(faults);
        }
        faulty = faults.lossProbability() > 0 || faults.corruptionProbability() > 0;
    }

    /** Sets how messages of several packets move: as packets (the reference) or as trains. */
    public void setModel(NetworkModel model) {
        this.model = java.util.Objects.requireNonNull(model, "model");
        // where a link ends at a node, trains interleave there as packets do (see NetworkModel)
        for (Link l : topology.links()) {
            l.serveInOfferOrder(model == NetworkModel.TRAIN && l.endsAt(this));
        }
    }

    /** How messages of several packets move. */
    public NetworkModel model() {
        return model;
    }

    /**
     * Whether a message sent now moves as one train: under {@link NetworkModel#TRAIN}, on a
     * fabric without loss or corruption, between distinct nodes.
     */
    boolean trains(int src, int dst) {
        return model == NetworkModel.TRAIN && !faulty && src != dst;
    }

    /**
     * Sends the packets linked from {@code head} (one message, from one node to one other, each
     * with its payload length set) back to back as one train; the network owns them from now on.
     * Each packet's wire size, counters and link times are what {@link #send} would give it;
     * only the events differ (see {@link NetworkModel#TRAIN}).
     *
     * @return when the last bit of the last packet has left the source node
     */
    long sendTrain(Packet head) {
        checkNode(head.src);
        checkNode(head.dst);
        long now = sim.now();
        int n = 0;
        long wire = 0;
        for (Packet q = head; q != null; q = q.trainNext) {
            q.wireBytes = costs.headerBytes() + q.length;
            q.trainAt = now;
            nicPackets.increment();
            nicBytes.add(q.wireBytes);
            n++;
            wire += q.wireBytes;
        }
        head.trainPackets = n;
        head.trainWireBytes = wire;
        head.trainShift = 0;
        head.describeTrain();
        Route r = topology.sourceRoute(head.src, head.dst);
        head.route = r;
        head.hop = 0;
        return (r != null ? r.hop(0) : topology.firstLink(head.src, head.dst)).transmit(head);
    }

    /** When a packet sent by {@code node} now could start serializing on its first link toward {@code dst}. */
    public long injectionFreeAt(int node, int dst) {
        return node == dst ? sim.now() : topology.firstLink(node, dst).freeAt();
    }

    /**
     * Sends {@code p} from {@code p.src} to {@code p.dst}; the network owns it from now on.
     * {@link Packet#wireBytes} becomes the header size plus {@link Packet#length}.
     *
     * @return when its last bit has left the source node (now, for loopback)
     */
    public long send(Packet p) {
        checkNode(p.src);
        checkNode(p.dst);
        p.wireBytes = costs.headerBytes() + p.length;
        if (p.src == p.dst) {
            p.route = null;
            sim.schedule(0, this, LOOPBACK, p.index());
            return sim.now();
        }
        Route r = topology.sourceRoute(p.src, p.dst);
        p.route = r;
        p.hop = 0;
        nicPackets.increment();
        nicBytes.add(p.wireBytes);
        return (r != null ? r.hop(0) : topology.firstLink(p.src, p.dst)).transmit(p);
    }

    /** Packets sent plus packets received by all endpoint NIC ports (loopback excluded). */
    public long nicPackets() {
        return nicPackets.value();
    }

    /** Wire bytes sent plus received by all endpoint NIC ports (loopback excluded). */
    public long nicBytes() {
        return nicBytes.value();
    }

    /** Delivery at the end of a route: hands the packet to the destination node's receiver. */
    @Override
    public void receive(Packet p) {
        if (p.trainNext != null) {
            // the destination takes the train when its tail is in, as its last packet would have arrived
            p.spellOutTrain();
            Packet tail = p;
            for (Packet q = p; q != null; q = q.trainNext) {
                nicPackets.increment();
                nicBytes.add(q.wireBytes);
                tail = q;
            }
            if (tail.trainAt == sim.now()) {
                deliverTrain(p);
            } else {
                sim.schedule(tail.trainAt - sim.now(), this, DELIVER_TRAIN, p.index());
            }
            return;
        }
        nicPackets.increment();
        nicBytes.add(p.wireBytes);
        deliver(p);
    }

    private void deliverTrain(Packet head) {
        for (Packet q = head; q != null; ) {
            Packet next = q.trainNext;
            q.trainNext = null;
            deliver(q);
            q = next;
        }
    }

    private void deliver(Packet p) {
        PacketReceiver r = nodes[p.dst];
        if (r == null) {
            undeliverable.increment();
            pool.release(p);
            return;
        }
        r.receive(p);
    }

    @Override
    public void handle(int type, long arg) {
        if (type == DELIVER_TRAIN) {
            deliverTrain(pool.get((int) arg));
            return;
        }
        if (type != LOOPBACK) {
            throw new IllegalStateException("unknown network event " + type);
        }
        deliver(pool.get((int) arg));
    }

    private void checkNode(int node) {
        if (node < 0 || node >= topology.nodeCount()) {
            throw new IllegalArgumentException("node " + node + " is not in 0.." + (topology.nodeCount() - 1));
        }
    }
}
