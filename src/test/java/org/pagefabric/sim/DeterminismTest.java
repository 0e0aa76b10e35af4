package org.pagefabric.sim;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.Statistic;
import org.pagefabric.sim.stat.TimeWeightedAverage;

/**
 * A randomized many-component model, fingerprinted with {@link RollingHashTracer}: the same
 * seed must give the same run, whether replications run on one thread or several.
 */
class DeterminismTest {
    static final int RACKS = 8;
    static final int NODES_PER_RACK = 8;
    static final long END = 40 * Time.US;

    static final int SEND = 1;
    static final int MSG = 2;
    static final int ACK = 3;
    static final int HANDOFF = 4;
    static final int TIMER = 5;
    static final int CONTROL_POKE = 6;

    /** Shared by the nodes of one simulation only. */
    static final class Net {
        final Simulator sim;
        final Node[] nodes;
        final TimeWeightedAverage inFlight;

        Net(long seed) {
            sim = new Simulator(seed);
            nodes = new Node[RACKS * NODES_PER_RACK];
            inFlight = sim.statistics().level("net.inflight", "messages", "messages on the wire");
        }
    }

    static final class Rack extends Component {
        Rack(Simulator sim, String name) {
            super(sim, name);
        }

        @Override
        public void handle(int type, long arg) {
        }
    }

    /**
     * Sends messages to random peers, arms a retransmission timer per message and cancels it
     * when the acknowledgement comes back in time; some arrivals are handed to the kernel band
     * with zero delay, which pokes the control band with zero delay in turn.
     */
    static final class Node extends Component {
        final Net net;
        final int index;
        final long[] timers = new long[1024];
        final Counter sent;
        final Counter received;
        final Counter timeouts;
        final Counter cancelled;
        final Counter pokes;
        int seq;

        Node(Net net, Rack rack, int index) {
            super(net.sim, rack, "node" + index);
            this.net = net;
            this.index = index;
            sent = counter("sent", "messages", "messages sent");
            received = counter("received", "messages", "messages received");
            timeouts = counter("timeouts", "count", "timers that fired");
            cancelled = counter("cancelled", "count", "timers cancelled by an acknowledgement");
            pokes = counter("pokes", "count", "zero-delay control events");
        }

        void start() {
            schedule(random().nextExponential(100 * Time.NS), Band.APPLICATION, SEND, 0);
        }

        @Override
        public void handle(int type, long arg) {
            RandomStream r = random();
            switch (type) {
                case SEND -> {
                    if (sim.now() >= END) {
                        return;
                    }
                    Node dest = net.nodes[r.nextInt(net.nodes.length)];
                    long delay = r.nextBoolean(0.1) ? 0 : 1 + r.nextExponential(200 * Time.NS);
                    int s = seq++;
                    sim.schedule(delay, Band.HARDWARE, dest, MSG, ((long) s << 16) | index);
                    net.inFlight.add(1);
                    sent.increment();
                    timers[s & (timers.length - 1)] = schedule(Time.US, Band.TIMEOUT, TIMER, s);
                    schedule(r.nextExponential(300 * Time.NS), Band.APPLICATION, SEND, 0);
                }
                case MSG -> {
                    received.increment();
                    net.inFlight.add(-1);
                    if (r.nextBoolean(0.5)) {
                        schedule(0, Band.KERNEL, HANDOFF, arg);
                    }
                    Node src = net.nodes[(int) (arg & 0xFFFF)];
                    // Mostly fast acknowledgements, sometimes slower than the timer.
                    long ackDelay = r.nextBoolean(0.9) ? r.nextExponential(150 * Time.NS) : r.nextExponential(3 * Time.US);
                    sim.schedule(ackDelay, Band.HARDWARE, src, ACK, arg >>> 16);
                }
                case ACK -> {
                    if (sim.cancel(timers[(int) arg & (timers.length - 1)])) {
                        cancelled.increment();
                    }
                }
                case HANDOFF -> {
                    if (r.nextBoolean(0.3)) {
                        schedule(0, Band.CONTROL, CONTROL_POKE, arg);
                    }
                }
                case CONTROL_POKE -> pokes.increment();
                case TIMER -> timeouts.increment();
                default -> throw new IllegalStateException("unknown event type " + type);
            }
        }
    }

    /** What a run produced: its fingerprint and every statistic. */
    record Result(long hash, long events, long endTime, List<Statistic.Value> stats) {
    }

    static Result runModel(long seed) {
        Net net = new Net(seed);
        Simulator sim = net.sim;
        RollingHashTracer tracer = new RollingHashTracer();
        sim.setTracer(tracer);
        for (int r = 0; r < RACKS; r++) {
            Rack rack = new Rack(sim, "rack" + r);
            for (int n = 0; n < NODES_PER_RACK; n++) {
                int i = r * NODES_PER_RACK + n;
                net.nodes[i] = new Node(net, rack, i);
            }
        }
        for (Node n : net.nodes) {
            n.start();
        }
        // A non-component observer, identified in the hash by its (lambda) class.
        EventHandler[] sampler = new EventHandler[1];
        Counter samples = sim.statistics().counter("observer.samples", "count", "samples taken");
        sampler[0] = (type, arg) -> {
            samples.increment();
            if (sim.now() < END) {
                sim.schedule(Time.US, Band.OBSERVER, sampler[0], 9, 0);
            }
        };
        sim.schedule(0, Band.OBSERVER, sampler[0], 9, 0);
        sim.run();
        assertEquals(tracer.events(), sim.eventsExecuted());
        return new Result(tracer.hash(), tracer.events(), sim.now(), sim.statistics().snapshot());
    }

    private static double total(Result r, String stat) {
        return r.stats().stream().filter(v -> v.statistic().endsWith("." + stat)).mapToDouble(Statistic.Value::value).sum();
    }

    @Test
    void sameSeedSameRun() {
        Result a = runModel(11);
        Result b = runModel(11);
        assertEquals(a, b);
        // The model exercises what it claims to: many events, cancelled and fired timers,
        // zero-delay hand-offs into a lower band.
        assertTrue(a.events() > 20_000, a.events() + " events");
        assertTrue(total(a, "cancelled") > 1_000, "cancelled " + total(a, "cancelled"));
        assertTrue(total(a, "timeouts") > 100, "timeouts " + total(a, "timeouts"));
        assertTrue(total(a, "pokes") > 100, "pokes " + total(a, "pokes"));
        assertEquals(total(a, "sent"), total(a, "received"));
    }

    @Test
    void differentSeedDifferentRun() {
        Result a = runModel(11);
        Result b = runModel(12);
        assertNotEquals(a.hash(), b.hash());
        assertNotEquals(a.stats(), b.stats());
    }

    @Test
    void replicationsGiveTheSameResultsOnOneThreadAndOnFour() throws Exception {
        long[] seeds = LongStream.rangeClosed(100, 107).toArray();
        List<Result> one = ParallelRuns.run(1, seeds.length, i -> runModel(seeds[i]));
        List<Result> four = ParallelRuns.run(4, seeds.length, i -> runModel(seeds[i]));
        assertEquals(one, four);
        assertEquals(seeds.length, new HashSet<>(one.stream().map(Result::hash).toList()).size(),
                "every seed gives its own run");
        // And the parallel results are those of plain sequential runs.
        assertEquals(runModel(seeds[5]), four.get(5));
    }
}
