package org.pagefabric.hw.net;

import org.pagefabric.sim.Component;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.stat.Counter;

/**
 * An output-queued switch. A packet that has arrived waits the hop latency (routing and
 * crossbar) and is then offered to the output link its route names next; packets from several
 * inputs meet, and queue, at that output link. Routes are carried by the packets (source
 * routing), so the switch needs no forwarding table and any topology's routing works.
 */
public final class Switch extends Component implements PacketReceiver {
    private static final int FORWARD = 1;

    private final long hopLatencyPs;
    private final PacketPool pool;
    private final Counter forwarded;

    /** A switch named {@code parent.localName} with a hop latency in picoseconds. */
    public Switch(Simulator sim, Component parent, String localName, long hopLatencyPs, PacketPool pool) {
        super(sim, parent, localName);
        if (hopLatencyPs < 0) {
            throw new IllegalArgumentException("switch hop latency must be >= 0, got " + hopLatencyPs);
        }
        this.hopLatencyPs = hopLatencyPs;
        this.pool = pool;
        forwarded = counter("forwarded", "packets", "packets forwarded");
    }

    @Override
    public void receive(Packet p) {
        p.hop++;
        if (p.route == null || p.hop >= p.route.length()) {
            throw new IllegalStateException("switch " + name() + " got a packet whose route ends here: " + p);
        }
        forwarded.increment();
        // Through an event even at zero latency: the output port must see offers in time order.
        sim.schedule(hopLatencyPs, this, FORWARD, p.index());
    }

    @Override
    public void handle(int type, long arg) {
        if (type != FORWARD) {
            throw new IllegalStateException("unknown switch event " + type);
        }
        Packet p = pool.get((int) arg);
        p.route.hop(p.hop).transmit(p);
    }
}
