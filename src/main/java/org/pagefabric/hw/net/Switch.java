package org.pagefabric.hw.net;

import org.pagefabric.sim.Band;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.EventLane;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.stat.Counter;

/**
 * An output-queued switch. A packet that has arrived waits the hop latency (routing and
 * crossbar) and is then offered to the output link its route names next; packets from several
 * inputs meet, and queue, at that output link. Routes are carried by the packets (source
 * routing), so the switch needs no forwarding table and any topology's routing works; or, for
 * topologies too large for a route per pair, the switch is given a {@link Forwarding} that
 * picks the output from the packet's destination.
 */
public final class Switch extends Component implements PacketReceiver {
    private static final int FORWARD = 1;

    private final long hopLatencyPs;
    private final PacketPool pool;
    /** Forwards at one latency leave in the order packets came in, so they wait in a lane. */
    private final EventLane forwards;
    private final Counter forwarded;
    private final Counter forwardedBytes;
    private final Forwarding forwarding;

    /** A switch named {@code parent.localName} with a hop latency in picoseconds. */
    public Switch(Simulator sim, Component parent, String localName, long hopLatencyPs, PacketPool pool) {
        this(sim, parent, localName, hopLatencyPs, pool, null);
    }

    /**
     * A switch that routes hop by hop with {@code forwarding} (packets carry no route), or by
     * the packets' source routes when {@code forwarding} is null.
     */
    public Switch(Simulator sim, Component parent, String localName, long hopLatencyPs, PacketPool pool,
                  Forwarding forwarding) {
        super(sim, parent, localName);
        forwards = sim.lane(this, Band.HARDWARE);
        this.forwarding = forwarding;
        if (hopLatencyPs < 0) {
            throw new IllegalArgumentException("switch hop latency must be >= 0, got " + hopLatencyPs);
        }
        this.hopLatencyPs = hopLatencyPs;
        this.pool = pool;
        forwarded = counter("forwarded", "packets", "packets forwarded");
        forwardedBytes = counter("forwardedBytes", "bytes", "wire bytes forwarded (header and payload)");
    }

    /** Packets forwarded so far. */
    public long forwardedPackets() {
        return forwarded.value();
    }

    /** Wire bytes forwarded so far. */
    public long forwardedBytes() {
        return forwardedBytes.value();
    }

    @Override
    public void receive(Packet p) {
        p.hop++;
        if (forwarding == null && (p.route == null || p.hop >= p.route.length())) {
            throw new IllegalStateException("switch " + name() + " got a packet whose route ends here: " + p);
        }
        if (p.trainNext != null) {
            receiveTrain(p);
            return;
        }
        forwarded.increment();
        forwardedBytes.add(p.wireBytes);
        // Through an event even at zero latency: the output port must see offers in time order.
        forwards.schedule(hopLatencyPs, FORWARD, p.index());
    }

    /**
     * A train's head has arrived: every packet is counted and will be offered to the output a hop
     * latency after its own arrival (the output link adds the latency as it walks the train).
     */
    private void receiveTrain(Packet head) {
        forwarded.add(head.trainPackets);
        forwardedBytes.add(head.trainWireBytes);
        head.trainShift += hopLatencyPs;
        forwards.schedule(hopLatencyPs, FORWARD, head.index());
    }

    @Override
    public void handle(int type, long arg) {
        if (type != FORWARD) {
            throw new IllegalStateException("unknown switch event " + type);
        }
        Packet p = pool.get((int) arg);
        Link out = forwarding != null ? forwarding.next(p) : p.route.hop(p.hop);
        out.transmit(p);
    }
}
