package org.pagefabric.hw.net;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Function;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;

/**
 * Two nodes (or a star) with one reliable connection from node 0 to node 1 whose payload is
 * real bytes: the source reads {@link #src}, the sink writes {@link #dst}. A message's id is its
 * offset in {@code src}, its address its offset in {@code dst}.
 */
final class TransferBed {
    static final NetCosts COSTS = new NetCosts(new LinkParams(500 * Time.NS, 12_500_000_000L), 100 * Time.NS, 32);

    final Simulator sim;
    final PacketPool pool;
    final Network net;
    final TransportEndpoint a;
    final TransportEndpoint b;
    final ReliableSender sender;
    final ReliableReceiver receiver;
    final byte[] src;
    final byte[] dst;
    final List<String> completions = new ArrayList<>();
    final List<Long> deliveries = new ArrayList<>();
    final List<Long> deliveryTimes = new ArrayList<>();
    final List<Long> completionTimes = new ArrayList<>();
    /** After the gate accepted a packet: how long its data takes to reach memory (0: at once). */
    java.util.function.ToLongFunction<Packet> placeDelay = p -> 0;
    /** After a packet was read: how long until its payload may leave (0: at once). */
    java.util.function.ToLongFunction<Packet> readDelay = p -> 0;
    /** When the last accepted packet's data reaches memory: never decreasing, as a sink promises. */
    long lastPlacedAt;
    private long lastReadyAt;
    /** Consulted before a packet is written; ACCEPT lets it through. */
    Function<Packet, SinkVerdict> gate = p -> SinkVerdict.ACCEPT;
    /** Consulted before a packet is read; false is a source fault. */
    Function<Packet, Boolean> sourceGate = p -> true;

    TransferBed(long seed, TransportConfig cfg, int bytes) {
        this(seed, cfg, bytes, FullMesh.twoNodes());
    }

    TransferBed(long seed, TransportConfig cfg, int bytes, Topology.Factory topology) {
        this(seed, cfg, bytes, topology, 1);
    }

    /** The receiving end on node {@code far} instead of node 1. */
    TransferBed(long seed, TransportConfig cfg, int bytes, Topology.Factory topology, int far) {
        sim = new Simulator(seed);
        pool = new PacketPool(64, cfg.mtuBytes());
        net = new Network(sim, "net", pool, COSTS, topology);
        a = new TransportEndpoint(net, 0, null);
        b = new TransportEndpoint(net, far, null);
        src = new byte[bytes];
        new SplittableRandom(seed ^ 0x5EED).nextBytes(src);
        dst = new byte[bytes];
        sender = a.openSender(3, far, 7, cfg, new PayloadSource() {
            @Override
            public boolean read(Packet p) {
                return TransferBed.this.read(p);
            }

            @Override
            public long readyAt() {
                return lastReadyAt;
            }
        }, (id, status) -> {
            completions.add(id + ":" + status);
            completionTimes.add(sim.now());
        });
        receiver = b.openReceiver(7, 0, 3, cfg, new PacketSink() {
            @Override
            public SinkVerdict accept(Packet p) {
                return write(p);
            }

            @Override
            public long placedAt() {
                return lastPlacedAt;
            }
        }, (id, len, op, addr) -> {
            deliveries.add(id);
            deliveryTimes.add(sim.now());
        });
    }

    private boolean read(Packet p) {
        if (!sourceGate.apply(p)) {
            return false;
        }
        System.arraycopy(src, (int) (p.messageId + p.offset), p.bytes, 0, p.length);
        p.hasBytes = true;
        lastReadyAt = sim.now() + readDelay.applyAsLong(p);
        return true;
    }

    private SinkVerdict write(Packet p) {
        SinkVerdict v = gate.apply(p);
        if (v == SinkVerdict.ACCEPT) {
            System.arraycopy(p.bytes, 0, dst, (int) (p.address + p.offset), p.length);
            lastPlacedAt = Math.max(lastPlacedAt, sim.now() + placeDelay.applyAsLong(p));
        }
        return v;
    }

    /** Posts the whole of {@code src} as messages of {@code messageBytes} (the last may be shorter). */
    List<Long> postAll(int messageBytes) {
        List<Long> ids = new ArrayList<>();
        for (int off = 0; off < src.length; off += messageBytes) {
            int len = Math.min(messageBytes, src.length - off);
            sender.post(off, len, off, 1);
            ids.add((long) off);
        }
        return ids;
    }

    long counter(String name) {
        var s = sim.statistics().get(name);
        if (s == null) {
            throw new IllegalArgumentException("no statistic " + name);
        }
        return ((org.pagefabric.sim.stat.Counter) s).value();
    }

    long senderCounter(String stat) {
        return counter(sender.name() + "." + stat);
    }

    long receiverCounter(String stat) {
        return counter(receiver.name() + "." + stat);
    }

    Link link(String localName) {
        return (Link) sim.component("net." + localName);
    }

    /** A configuration with every field spelled out; tests vary it through the with-methods below. */
    static TransportConfig config(RetransmissionMode mode, int blockBytes, int mtu, int window) {
        return new TransportConfig(mode, blockBytes, mtu, window, 0, 100 * Time.US, 8, 20 * Time.US, 7, true, true, 0);
    }

    static TransportConfig withRetries(TransportConfig c, int retryLimit, int rnrRetryLimit) {
        return new TransportConfig(c.mode(), c.blockBytes(), c.mtuBytes(), c.windowBlocks(), c.ackEveryPackets(),
                c.retransmitTimeoutPs(), retryLimit, c.rnrBackoffPs(), rnrRetryLimit, c.nackCorrupt(), c.nackOnGap(),
                c.faultWaitTimeoutPs());
    }

    static TransportConfig withAcks(TransportConfig c, int ackEvery) {
        return new TransportConfig(c.mode(), c.blockBytes(), c.mtuBytes(), c.windowBlocks(), ackEvery,
                c.retransmitTimeoutPs(), c.retryLimit(), c.rnrBackoffPs(), c.rnrRetryLimit(), c.nackCorrupt(),
                c.nackOnGap(), c.faultWaitTimeoutPs());
    }

    static TransportConfig withNacks(TransportConfig c, boolean nackCorrupt, boolean nackOnGap) {
        return new TransportConfig(c.mode(), c.blockBytes(), c.mtuBytes(), c.windowBlocks(), c.ackEveryPackets(),
                c.retransmitTimeoutPs(), c.retryLimit(), c.rnrBackoffPs(), c.rnrRetryLimit(), nackCorrupt, nackOnGap,
                c.faultWaitTimeoutPs());
    }
}
