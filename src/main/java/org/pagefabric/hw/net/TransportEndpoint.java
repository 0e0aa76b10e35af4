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
 *
 * <p>Unreliable datagrams ({@link PacketKind#DATAGRAM}) bypass the reliable transport: a sender
 * fills a packet from {@link #newDatagram} and {@link #sendDatagram sends} it; at the
 * destination the endpoint checks its checksum (a corrupt datagram is dropped and counted, as
 * a UD packet with a bad ICRC is) and lends it to the {@link PacketSink} opened with
 * {@link #openDatagram} on its channel. Nothing acknowledges it, so the sink's verdict only
 * feeds the counters.
 */
public final class TransportEndpoint implements PacketReceiver {
    private final Network net;
    private final int node;
    private final Component owner;
    private final String prefix;
    private ReliableSender[] senders = new ReliableSender[8];
    private ReliableReceiver[] receivers = new ReliableReceiver[8];
    private PacketSink[] datagramSinks = new PacketSink[8];
    /** The message being built by {@link #addToMessage}: its first and last datagram, or null. */
    private Packet messageHead;
    private Packet messageTail;
    private final Counter unknownChannel;
    private final Counter datagramsSent;
    private final Counter datagramsCorrupt;
    private final Counter datagramsDropped;

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
        String stats = owner == null ? "node" + node + "-transport" : owner.name() + ".transport";
        this.datagramsSent = net.simulator().statistics().counter(stats + ".datagramsSent", "packets",
                "unreliable datagrams sent");
        this.datagramsCorrupt = net.simulator().statistics().counter(stats + ".datagramsCorrupt", "packets",
                "unreliable datagrams dropped on arrival for a bad checksum");
        this.datagramsDropped = net.simulator().statistics().counter(stats + ".datagramsDropped", "packets",
                "unreliable datagrams their sink did not accept");
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

    /**
     * Opens the receiving side of unreliable datagrams on {@code channel}: every intact datagram
     * addressed to it is lent to {@code sink}, which must copy what it keeps before returning.
     */
    public void openDatagram(int channel, PacketSink sink) {
        checkChannel(channel);
        datagramSinks = grow(datagramSinks, channel);
        if (datagramSinks[channel] != null) {
            throw new IllegalStateException("node " + node + " already has a datagram sink on channel " + channel);
        }
        datagramSinks[channel] = sink;
    }

    /**
     * A cleared datagram from {@code node} to {@code channel} at {@code dst}, owned by the caller
     * until it passes it to {@link #sendDatagram} (or releases it to the pool). Its payload
     * buffer holds {@link #datagramCapacity()} bytes.
     */
    public Packet newDatagram(int dst, int channel) {
        Packet p = net.pool().acquire();
        p.kind = PacketKind.DATAGRAM;
        p.src = node;
        p.dst = dst;
        p.channel = channel;
        p.blockCount = 1;
        p.blockPackets = 1;
        return p;
    }

    /**
     * Seals ({@link Checksum#seal}) and sends a datagram built by {@link #newDatagram}; the network owns it
     * from now on.
     *
     * @return when its last bit has left this node
     */
    public long sendDatagram(Packet p) {
        if (messageHead != null) {
            throw new IllegalStateException("node " + node + " is building a message; send it before a single datagram");
        }
        seal(p);
        return net.send(p);
    }

    /**
     * Adds a datagram built by {@link #newDatagram} to the message this endpoint is building,
     * sealed as {@link #sendDatagram} seals it; {@link #sendMessage} sends them. The datagrams of
     * a message go to one destination and leave back to back, in the order added.
     */
    public void addToMessage(Packet p) {
        if (messageHead != null && p.dst != messageHead.dst) {
            throw new IllegalArgumentException("a message goes to one node: " + messageHead.dst + ", not " + p.dst);
        }
        seal(p);
        if (messageHead == null) {
            messageHead = p;
        } else {
            messageTail.trainNext = p;
        }
        messageTail = p;
    }

    /**
     * Sends the message built by {@link #addToMessage}: as one train when the network moves
     * trains ({@link NetworkModel#TRAIN}, no loss or corruption, another node) and the message
     * has several datagrams, otherwise as its datagrams one by one, exactly as
     * {@link #sendDatagram} would send them.
     *
     * @return when its last bit has left this node
     */
    public long sendMessage() {
        Packet head = messageHead;
        if (head == null) {
            throw new IllegalStateException("node " + node + " has no message to send");
        }
        messageHead = null;
        messageTail = null;
        if (head.trainNext != null && net.trains(head.src, head.dst)) {
            return net.sendTrain(head);
        }
        long left = 0;
        for (Packet q = head; q != null; ) {
            Packet next = q.trainNext;
            q.trainNext = null;
            left = net.send(q);
            q = next;
        }
        return left;
    }

    private void seal(Packet p) {
        if (p.kind != PacketKind.DATAGRAM || p.src != node) {
            throw new IllegalArgumentException("not a datagram of node " + node + ": " + p);
        }
        if (p.length > net.pool().payloadCapacity()) {
            throw new IllegalArgumentException("datagram of " + p.length + " B exceeds the "
                    + net.pool().payloadCapacity() + " B a packet carries");
        }
        p.messageLength = p.length;
        Checksum.seal(p);
        datagramsSent.increment();
    }

    /** The largest datagram payload, in bytes: what one packet of the network's pool carries. */
    public int datagramCapacity() {
        return net.pool().payloadCapacity();
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
            if (p.kind == PacketKind.DATAGRAM) {
                datagram(p, ch);
            } else if (p.kind == PacketKind.DATA) {
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

    private void datagram(Packet p, int ch) {
        PacketSink sink = ch < datagramSinks.length ? datagramSinks[ch] : null;
        if (sink == null) {
            unknownChannel.increment();
        } else if (!Checksum.intact(p)) {
            datagramsCorrupt.increment();
        } else if (sink.accept(p) != SinkVerdict.ACCEPT) {
            datagramsDropped.increment();
        }
    }
}
