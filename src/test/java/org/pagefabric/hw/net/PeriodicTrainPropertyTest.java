package org.pagefabric.hw.net;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.stat.Statistic;

/**
 * A link that takes a periodic train in one step ({@link Packet#trainPeriodic}) against the
 * same link walking it packet by packet: random chains of links of random rates and latencies,
 * joined by hops that add a latency as a switch does, carry random trains (2 to 30 packets, a
 * body of equal or unequal wire sizes, a shorter or longer last packet) offered at random times
 * so that they meet busy links. Every packet's arrival time at the chain's end, and every
 * statistic of every link (counts, bytes, busy time, the queueing delay's count, sum, mean,
 * deviation, minimum and maximum), must be exactly the walk's.
 */
class PeriodicTrainPropertyTest {
    static List<Long> seeds() {
        List<Long> s = new ArrayList<>();
        for (long i = 1; i <= 200; i++) {
            s.add(i);
        }
        return s;
    }

    /** What a run produced: per train, its packets' arrival times at the end; and every statistic. */
    private record Outcome(List<List<Long>> arrivals, List<Statistic.Value> statistics, int takenWhole) {
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void takingATrainWholeGivesWhatTheWalkGives(long seed) {
        Outcome whole = run(seed, true);
        Outcome walked = run(seed, false);
        assertEquals(walked.arrivals(), whole.arrivals());
        assertEquals(walked.statistics().size(), whole.statistics().size());
        for (int i = 0; i < walked.statistics().size(); i++) {
            Statistic.Value a = walked.statistics().get(i);
            Statistic.Value b = whole.statistics().get(i);
            assertEquals(a.statistic() + "." + a.field(), b.statistic() + "." + b.field());
            // bit for bit: the same doubles, not nearly the same
            assertEquals(Double.doubleToRawLongBits(a.value()), Double.doubleToRawLongBits(b.value()),
                    a.statistic() + "." + a.field());
        }
        assertEquals(0, walked.takenWhole());
    }

    @Test
    void trainsReachLaterLinksStillPeriodic() {
        // a train shaped by a link leaves it periodic, so the links after it may take it whole
        int whole = 0;
        for (long seed : seeds()) {
            whole += run(seed, true).takenWhole();
        }
        assertTrue(whole > 1000, whole + " periodic trains offered to links after the first");
    }

    private static Outcome run(long seed, boolean periodic) {
        RandomStream r = new RandomStream(RandomStream.mix64(seed * 104_729));
        Simulator sim = new Simulator(seed);
        PacketPool pool = new PacketPool(64, 0);
        int links = 1 + r.nextInt(5);
        Link[] chain = new Link[links];
        for (int i = 0; i < links; i++) {
            // equal rates are the common case (a train leaves a link at its rate); mixed ones too
            long rate = r.nextBoolean(0.5) ? 10_000_000_000L : 1_000_000_000L * (1 + r.nextInt(20));
            chain[i] = new Link(sim, null, "l" + i, new LinkParams(r.nextLong(400_000), rate), pool);
        }
        long hopPs = r.nextLong(200_000);
        int[] whole = new int[1];
        List<List<Long>> arrivals = new ArrayList<>();
        for (int i = 0; i < links; i++) {
            int next = i + 1;
            if (next < links) {
                Link out = chain[next];
                EventHandler forward = (type, arg) -> {
                    Packet head = pool.get((int) arg);
                    if (!periodic) {
                        head.spellOutTrain();
                    } else if (head.trainPeriodic) {
                        whole[0]++;
                    }
                    out.transmit(head);
                };
                chain[i].connect(head -> {
                    head.trainShift += hopPs;
                    sim.schedule(hopPs, forward, 0, head.index());
                });
            } else {
                chain[i].connect(head -> {
                    head.spellOutTrain();
                    List<Long> times = new ArrayList<>();
                    for (Packet q = head; q != null; q = q.trainNext) {
                        times.add(q.trainAt + head.trainShift);
                    }
                    arrivals.add(times);
                    for (Packet q = head; q != null; ) {
                        Packet n = q.trainNext;
                        pool.release(q);
                        q = n;
                    }
                });
            }
        }
        int trains = 1 + r.nextInt(40);
        long window = 1 + r.nextLong(trains * 3_000_000L);
        for (int t = 0; t < trains; t++) {
            int n = 2 + r.nextInt(29);
            boolean uniform = r.nextBoolean(0.8);
            int body = 40 + r.nextInt(2000);
            int tail = r.nextBoolean(0.5) ? body : 40 + r.nextInt(2000);
            int[] wires = new int[n];
            for (int k = 0; k < n; k++) {
                wires[k] = k == n - 1 ? tail : uniform ? body : 40 + r.nextInt(2000);
            }
            sim.schedule(r.nextLong(window), (type, arg) -> {
                Packet head = null;
                Packet last = null;
                long wire = 0;
                for (int w : wires) {
                    Packet p = pool.acquire();
                    p.kind = PacketKind.DATA;
                    p.wireBytes = w;
                    p.trainAt = sim.now();
                    wire += w;
                    if (head == null) {
                        head = p;
                    } else {
                        last.trainNext = p;
                    }
                    last = p;
                }
                head.trainPackets = wires.length;
                head.trainWireBytes = wire;
                head.trainShift = 0;
                if (periodic) {
                    head.describeTrain();
                }
                chain[0].transmit(head);
            }, 0, 0);
        }
        sim.run();
        assertEquals(trains, arrivals.size());
        return new Outcome(arrivals, sim.statistics().snapshot(), whole[0]);
    }
}
