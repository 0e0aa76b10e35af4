package org.pagefabric.hw.net;

import java.util.Arrays;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.stat.Counter;

/**
 * A node's attachment to the network for reliable connections: it demultiplexes arriving
 * packets by {@link Packet#channel} (the destination's connection number, like a QP number) to
 * the {@link ReliableReceiver} (DATA) or {@link ReliableSender} (ACK, NACK, retransmission
 * request) opened on that channel, and releases every packet afterwards.
 *
 * <p>A connection from node A, channel a, to node B, channel b, is
 * {@code endpointA.openSender(a, B, b, ...)} plus {@code endpointB.openReceiver(b, A, a, ...)}:
 * DATA goes to channel b at B, acknowledgements come back to channel a at A. A queue pair that
 * sends both ways opens a sender and a receiver on the same channel at each end.
 */
public final class TransportEndpoint implements PacketReceiver {
    private final Network net;
    private final int node;
    private final Component owner;
    private final String prefix;
    private ReliableSender[] senders = new ReliableSender[8];
    private ReliableReceiver[] receivers = new ReliableReceiver[8];
    private final Counter unknownChannel;

    /**
     * Attaches an endpoint for {@code node} to {@code net}.
     *
     * @param owner the component (a NIC) whose name prefixes the connections' names, or null for
     *              top-level names {@code node<n>-send<c>} and {@code node<n>-recv<c>}
     */
    public TransportEndpoint(Network net, int node, Component owner) {
        this.net = net;
        this.node = node;
        this.owner = owner;
        this.prefix = owner == null ? "node" + node + "-" : "";
        this.unknownChannel = net.simulator().statistics().counter(
                (owner == null ? "node" + node + "-transport" : owner.name() + ".transport") + ".unknownChannel",
                "packets", "packets for a channel with no connection open");
        net.attach(node, this);
    }

    /** Opens the sending half of a connection on {@code channel}, toward {@code peerChannel} at {@code peerNode}. */
    public ReliableSender openSender(int channel, int peerNode, int peerChannel, TransportConfig cfg,
                                     PayloadSource source, CompletionListener listener) {
        checkChannel(channel);
        senders = grow(senders, channel);
        if (senders[channel] != null) {
            throw new IllegalStateException("node " + node + " already has a sender on channel " + channel);
        }
        ReliableSender s = new ReliableSender(net.simulator(), owner, prefix + "send" + channel, net, cfg, node,
                peerNode, peerChannel, source, listener);
        senders[channel] = s;
        return s;
    }

    /** Opens the receiving half of a connection on {@code channel}, from {@code peerChannel} at {@code peerNode}. */
    public ReliableReceiver openReceiver(int channel, int peerNode, int peerChannel, TransportConfig cfg,
                                         PacketSink sink, DeliveryListener listener) {
        checkChannel(channel);
        receivers = grow(receivers, channel);
        if (receivers[channel] != null) {
            throw new IllegalStateException("node " + node + " already has a receiver on channel " + channel);
        }
        String name = owner == null ? prefix + "recv" + channel : owner.name() + ".recv" + channel;
        ReliableReceiver r = new ReliableReceiver(name, net, cfg, node, peerNode, peerChannel, sink, listener);
        receivers[channel] = r;
        return r;
    }

    private static void checkChannel(int channel) {
        if (channel < 0) {
            throw new IllegalArgumentException("negative channel " + channel);
        }
    }

    private static <T> T[] grow(T[] a, int index) {
        return index < a.length ? a : Arrays.copyOf(a, Math.max(index + 1, a.length * 2));
    }

    /** The node this endpoint serves. */
    public int node() {
        return node;
    }

    @Override
    public void receive(Packet p) {
        try {
            int ch = p.channel;
            if (p.kind == PacketKind.DATA) {
                ReliableReceiver r = ch < receivers.length ? receivers[ch] : null;
                if (r == null) {
                    unknownChannel.increment();
                } else {
                    r.onData(p);
                }
            } else {
                ReliableSender s = ch < senders.length ? senders[ch] : null;
                if (s == null) {
                    unknownChannel.increment();
                } else {
                    s.onControl(p);
                }
            }
        } finally {
            net.pool().release(p);
        }
    }
}
