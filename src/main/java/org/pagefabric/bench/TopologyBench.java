package org.pagefabric.bench;

import java.util.SplittableRandom;
import org.pagefabric.hw.net.LinkParams;
import org.pagefabric.hw.net.NetCosts;
import org.pagefabric.hw.net.Network;
import org.pagefabric.hw.net.PacketPool;
import org.pagefabric.hw.net.RoutedTopology;
import org.pagefabric.hw.net.Topologies;
import org.pagefabric.sim.Simulator;

/**
 * Build time, route-walk time and heap of every router topology at one node count:
 * {@code java -cp target/pagefabric.jar org.pagefabric.bench.TopologyBench 32768}. Each
 * topology is built twice and the second build reported (the first warms the JIT).
 */
public final class TopologyBench {
    private TopologyBench() {
    }

    /** Runs the measurement for the node count in {@code args[0]} and prints one line per topology. */
    public static void main(String[] args) {
        int nodes = Integer.parseInt(args[0]);
        NetCosts costs = new NetCosts(new LinkParams(100_000, 25_000_000_000L), 130_000, 40);
        Runtime rt = Runtime.getRuntime();
        for (String kind : Topologies.ROUTED) {
            for (int round = 0; round < 2; round++) {
                System.gc();
                long heap0 = rt.totalMemory() - rt.freeMemory();
                long t0 = System.nanoTime();
                Network net = new Network(new Simulator(1), "net", new PacketPool(16, 0), costs,
                        RoutedTopology.factory(Topologies.geometry(kind, nodes)));
                long t1 = System.nanoTime();
                RoutedTopology t = (RoutedTopology) net.topology();
                SplittableRandom r = new SplittableRandom(1);
                int pairs = 1_000_000;
                long hops = 0;
                long t2 = System.nanoTime();
                for (int i = 0; i < pairs; i++) {
                    hops += t.routerHops(r.nextInt(nodes), r.nextInt(nodes));
                }
                long t3 = System.nanoTime();
                System.gc();
                long heap1 = rt.totalMemory() - rt.freeMemory();
                if (round == 1) {
                    System.out.printf("%-20s nodes=%d routers=%d links=%d build=%.0f ms route=%.0f ns/pair"
                                    + " (%.2f router hops, %.0f ns/hop) heap=+%d MiB%n",
                            kind, nodes, t.geometry().routers(), t.links().size(), (t1 - t0) / 1e6,
                            (t3 - t2) / (double) pairs, hops / (double) pairs, (t3 - t2) / (double) Math.max(1, hops),
                            (heap1 - heap0) >> 20);
                }
                if (net.topology() != t) {
                    throw new IllegalStateException("unreachable: keeps the network alive until measured");
                }
            }
        }
    }
}
