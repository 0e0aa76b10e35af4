package org.pagefabric.hw.net;

import org.pagefabric.sim.Band;
import org.pagefabric.sim.Component;
import org.pagefabric.sim.EventLane;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.stat.Accumulator;
import org.pagefabric.sim.stat.Counter;

/**
 * One direction of a point-to-point link, with its transmitter's output queue.
 *
 * <p>A packet offered at time {@code t} starts serializing when the link is free,
 * {@code start = max(t, busyUntil)}, occupies it for {@link LinkParams#serializationPs}, and
 * arrives whole (store and forward) {@link LinkParams#latencyPs} after its last bit left. Since
 * offers come in time order and the link serves them first come first served, the queue needs
 * no storage: {@code busyUntil} is its tail, and one event per packet (the arrival) suffices.
 * The queue is unbounded, as on a credit-based lossless fabric; loss comes from
 * {@link LinkFaults} only.
 *
 * <p>A train ({@link NetworkModel#TRAIN}) is offered as its head: each of its packets starts at
 * {@code max(its own offer time, busyUntil)} and is counted as a packet would be, so busy time,
 * bytes and queueing come out per packet; one arrival event carries the whole train, at its
 * head's arrival. Packets that other senders offer while a train is being serialized wait for
 * its tail (see docs/MACHINE.md, "Two network models").
 */
public final class Link extends Component {
    private static final int ARRIVE = 1;
    /** A train's tail has been offered: serialize what was offered up to it and send the train on. */
    private static final int TAIL_OFFERED = 2;
    /** A train's tail has reached the far end: hand the train over. */
    private static final int TRAIN_ARRIVE = 3;

    private final LinkParams params;
    private final PacketPool pool;
    /** Arrivals leave in the order they were sent, so they wait in a lane, not in the heap. */
    private final EventLane arrivals;
    private PacketReceiver downstream;
    private long busyUntil;
    /** Trains wait here and are serialized packet by packet in offer order (see {@link #serveInOfferOrder}). */
    private TrainHeap waiting;
    private long trainsTaken;
    /** Serialization time of the waiting trains' packets not yet serialized. */
    private long waitingPs;
    private double lossProbability;
    private double corruptionProbability;

    private final Counter packets;
    private final Counter bytes;
    private final Counter busyPs;
    private final Counter lost;
    private final Counter lostDatagrams;
    private final Counter corrupted;
    private final Accumulator queueingDelay;

    /** A link named {@code parent.localName}; connect its far end before sending. */
    public Link(Simulator sim, Component parent, String localName, LinkParams params, PacketPool pool) {
        super(sim, parent, localName);
        arrivals = sim.lane(this, Band.HARDWARE);
        this.params = params;
        this.pool = pool;
        packets = counter("packets", "packets", "packets that started serializing on this link");
        bytes = counter("bytes", "bytes", "wire bytes serialized (header and payload)");
        busyPs = counter("busy", "ps", "time spent serializing");
        lost = counter("lost", "packets", "packets lost by fault injection");
        lostDatagrams = counter("lostDatagrams", "packets",
                "unreliable datagrams among the lost packets: nothing resends them");
        corrupted = counter("corrupted", "packets", "packets with a bit flipped by fault injection");
        queueingDelay = accumulator("queueingDelay", "ps", "wait between offer and start of serialization");
    }

    /** Sets what receives the packets arriving at the far end. */
    public void connect(PacketReceiver receiver) {
        this.downstream = receiver;
    }

    /** Whether this link delivers to {@code receiver}. */
    boolean endsAt(PacketReceiver receiver) {
        return downstream == receiver;
    }

    /** Sets the loss and corruption probabilities for packets offered from now on. */
    public void setFaults(LinkFaults faults) {
        this.lossProbability = faults.lossProbability();
        this.corruptionProbability = faults.corruptionProbability();
    }

    /**
     * Makes this link serialize trains packet by packet in the order their packets are offered,
     * interleaving the packets of trains that meet here as the packet model does, at the price
     * of holding each train until its tail has been offered. Meant for a link that ends at a
     * node, where nothing waits for a train's head: the node takes a train at its tail.
     */
    public void serveInOfferOrder(boolean on) {
        if (on && waiting == null) {
            waiting = new TrainHeap(pool);
        } else if (!on && waiting != null && !waiting.isEmpty()) {
            throw new IllegalStateException(name() + " still holds trains");
        } else if (!on) {
            waiting = null;
        }
    }

    /** This link's cost parameters. */
    public LinkParams params() {
        return params;
    }

    /**
     * When the last queued packet will have left: the earliest start of the next one. With trains
     * waiting to be serialized in offer order, their packets' serialization is added as if each
     * were offered at once, so the time is a lower bound.
     */
    public long freeAt() {
        return Math.max(busyUntil, sim.now()) + waitingPs;
    }

    /**
     * Queues {@code p} ({@link Packet#wireBytes} must be set); the link owns it from now on.
     *
     * @return the time its last bit leaves this end of the link
     */
    public long transmit(Packet p) {
        if (waiting != null) {
            // every offer made before this one is served first, as the packet model serves them
            serve(sim.now());
            if (p.trainNext != null) {
                return holdTrain(p);
            }
        } else if (p.trainNext != null) {
            return transmitTrain(p);
        }
        final long now = sim.now();
        long start = Math.max(now, busyUntil);
        long ser = params.serializationPs(p.wireBytes);
        long end = start + ser;
        busyUntil = end;
        packets.increment();
        bytes.add(p.wireBytes);
        busyPs.add(ser);
        queueingDelay.record(start - now);
        if (lossProbability > 0 && random().nextBoolean(lossProbability)) {
            lost.increment();
            if (p.kind == PacketKind.DATAGRAM) {
                lostDatagrams.increment();
            }
            pool.release(p);
            return end;
        }
        if (corruptionProbability > 0 && random().nextBoolean(corruptionProbability)) {
            corrupted.increment();
            flipBit(p);
        }
        arrivals.schedule(end + params.latencyPs() - now, ARRIVE, p.index());
        return end;
    }

    /**
     * Queues a train whose packets carry their offer times in {@link Packet#trainAt}; on return
     * each carries its arrival time at the far end instead, lost packets are unlinked and
     * released, and one event brings the train's (new) head to the far end.
     *
     * @return the time the train's last bit leaves this end of the link
     */
    private long transmitTrain(Packet head) {
        if (head.trainPeriodic && lossProbability == 0 && corruptionProbability == 0 && takeWhole(head)) {
            return busyUntil;
        }
        head.spellOutTrain();
        final long now = sim.now();
        final long latency = params.latencyPs();
        final long shift = head.trainShift;
        long busy = busyUntil;
        Packet first = null;
        Packet last = null;
        int n = 0;
        long wire = 0;
        for (Packet q = head; q != null; ) {
            Packet next = q.trainNext;
            q.trainAt += shift;
            long start = Math.max(q.trainAt, busy);
            long ser = params.serializationPs(q.wireBytes);
            busy = start + ser;
            packets.increment();
            bytes.add(q.wireBytes);
            busyPs.add(ser);
            queueingDelay.record(start - q.trainAt);
            if (lossProbability > 0 && random().nextBoolean(lossProbability)) {
                lost.increment();
                if (q.kind == PacketKind.DATAGRAM) {
                    lostDatagrams.increment();
                }
                q.trainNext = null;
                if (first == null && next != null) {
                    // the route travels with whichever packet leads the train
                    next.route = q.route;
                    next.hop = q.hop;
                }
                pool.release(q);
                q = next;
                continue;
            }
            if (corruptionProbability > 0 && random().nextBoolean(corruptionProbability)) {
                corrupted.increment();
                flipBit(q);
            }
            q.trainAt = busy + latency;
            n++;
            wire += q.wireBytes;
            if (first == null) {
                first = q;
            } else {
                last.trainNext = q;
            }
            last = q;
            q = next;
        }
        busyUntil = busy;
        if (first != null) {
            last.trainNext = null;
            first.trainShift = 0;
            first.trainPackets = n;
            first.trainWireBytes = wire;
            first.describeTrain();
            arrivals.schedule(first.trainAt - now, ARRIVE, first.index());
        }
        return busy;
    }

    /**
     * Takes a periodic train ({@link Packet#trainPeriodic}) in one step when what the walk would
     * give each packet follows from the description: the body's packets either all start at
     * their offers (the link is free at the first, and they come no faster than it serializes
     * them) or all back to back from the first one's start (they come at least as fast). The
     * train leaves periodic, its per-packet times, counters and queueing delays exactly the
     * walk's; anything else (a body that catches up with a queue in the middle) is walked.
     *
     * @return whether the train was taken
     */
    private boolean takeWhole(Packet head) {
        final long shift = head.trainShift;
        final long t0 = head.trainBase + shift;
        final long g = head.trainPeriod;
        final int m = head.trainPackets - 1;
        final long s = params.serializationPs(head.trainBodyWire);
        final long start0 = Math.max(t0, busyUntil);
        final boolean atOffers = start0 == t0 && (m == 1 || g >= s);
        if (!atOffers && m > 1 && g > s) {
            return false;
        }
        final long latency = params.latencyPs();
        long bodyEnd;
        long period;
        if (atOffers) {
            bodyEnd = t0 + (m - 1) * g + s;
            period = g;
            queueingDelay.recordRepeated(0, m);
        } else {
            bodyEnd = start0 + m * s;
            period = s;
            long d = start0 - t0;
            long step = s - g;
            if (step == 0 || m == 1) {
                queueingDelay.recordRepeated(d, m);
            } else {
                for (int i = 0; i < m; i++) {
                    queueingDelay.record(d + i * step);
                }
            }
        }
        final long tail = head.trainTailAt + shift;
        final long sTail = params.serializationPs(head.trainTailWire);
        final long startTail = Math.max(tail, bodyEnd);
        queueingDelay.record(startTail - tail);
        busyUntil = startTail + sTail;
        packets.add(m + 1);
        bytes.add(head.trainWireBytes);
        busyPs.add(m * s + sTail);
        head.trainShift = 0;
        head.trainBase = start0 + s + latency;
        head.trainPeriod = period;
        head.trainTailAt = busyUntil + latency;
        arrivals.schedule(head.trainBase - sim.now(), ARRIVE, head.index());
        return true;
    }

    /**
     * Takes a train to serialize in offer order: its packets wait with every other train's, and
     * when its tail has been offered everything offered up to then is serialized and the train
     * goes on at its tail's arrival.
     *
     * @return when the train's last bit would leave if nothing were offered after it
     */
    private long holdTrain(Packet head) {
        if (lossProbability > 0 || corruptionProbability > 0) {
            throw new IllegalStateException(name() + ": a train on a link with faults; the network sends packets there");
        }
        head.spellOutTrain();
        Packet tail = head;
        long end = Math.max(busyUntil, sim.now()) + waitingPs;
        final long shift = head.trainShift;
        head.trainShift = 0;
        for (Packet q = head; q != null; q = q.trainNext) {
            q.trainAt += shift;
            long ser = params.serializationPs(q.wireBytes);
            waitingPs += ser;
            end = Math.max(end, q.trainAt) + ser;
            tail = q;
        }
        long tailOffered = tail.trainAt;
        head.trainCursor = head;
        head.trainSeq = trainsTaken++;
        waiting.add(head);
        serve(sim.now());
        sim.schedule(tailOffered - sim.now(), this, TAIL_OFFERED, head.index());
        return end;
    }

    /**
     * Serializes, in offer order (ties in the order the trains were taken), every waiting packet
     * offered at or before {@code until}: what the packet model's first-come first-served queue
     * has decided by then.
     */
    private void serve(long until) {
        final long latency = params.latencyPs();
        while (!waiting.isEmpty() && waiting.leastOffer() <= until) {
            Packet head = waiting.peek();
            Packet q = head.trainCursor;
            long start = Math.max(q.trainAt, busyUntil);
            long ser = params.serializationPs(q.wireBytes);
            busyUntil = start + ser;
            waitingPs -= ser;
            packets.increment();
            bytes.add(q.wireBytes);
            busyPs.add(ser);
            queueingDelay.record(start - q.trainAt);
            q.trainAt = busyUntil + latency;
            head.trainCursor = q.trainNext;
            if (q.trainNext == null) {
                waiting.poll();
            } else {
                waiting.update();
            }
        }
    }

    /** Flips one payload bit, or a checksum bit when the payload is a tag or empty. */
    private void flipBit(Packet p) {
        Checksum.settle(p); // the sealed value, from the packet as it was before the flip
        if (p.hasBytes && p.length > 0) {
            int bit = random().nextInt(p.length * 8);
            p.bytes[bit >>> 3] ^= (byte) (1 << (bit & 7));
        } else if (p.kind == PacketKind.DATA) {
            p.contentTag ^= 1L << random().nextInt(64);
        } else {
            p.checksum ^= 1L << random().nextInt(64);
        }
    }

    @Override
    public void handle(int type, long arg) {
        switch (type) {
            case ARRIVE, TRAIN_ARRIVE -> downstream.receive(pool.get((int) arg));
            case TAIL_OFFERED -> {
                serve(sim.now());
                Packet head = pool.get((int) arg);
                if (head.trainCursor != null) {
                    throw new IllegalStateException(name() + ": train tail offered but not serialized");
                }
                Packet tail = head;
                while (tail.trainNext != null) {
                    tail = tail.trainNext;
                }
                sim.schedule(tail.trainAt - sim.now(), this, TRAIN_ARRIVE, head.index());
            }
            default -> throw new IllegalStateException("unknown link event " + type);
        }
    }
}
