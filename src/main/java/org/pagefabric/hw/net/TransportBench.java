package org.pagefabric.hw.net;

import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;

/**
 * The transport's speed benchmark: back-to-back RDMA writes of {@link #MESSAGE_BYTES} between
 * two nodes with a {@link #MTU_BYTES} MTU over go-back-N (InfiniBand RC style), payload as
 * content tags checked at the receiver. Reports simulated packets (DATA and control, counted on
 * the links) per wall-clock second.
 *
 * <p>The costs below are benchmark inputs, not a calibrated profile: a 100 Gb/s link with
 * 500 ns latency and a 64-byte header; they only set how much simulated time passes, not how
 * much work a packet costs the simulator.
 */
public final class TransportBench {
    /** Bytes per RDMA write. */
    public static final int MESSAGE_BYTES = 1 << 20;
    /** Payload bytes per packet. */
    public static final int MTU_BYTES = 4096;
    private static final NetCosts COSTS = new NetCosts(new LinkParams(500 * Time.NS, 12_500_000_000L), 0, 64);
    private static final TransportConfig CONFIG = new TransportConfig(RetransmissionMode.GO_BACK_N, 64 * 1024,
            MTU_BYTES, 16, 0, 1 * Time.MS, 7, 10 * Time.US, 7, true, true, 0);

    /**
     * What one run measured.
     *
     * @param transfers    1 MiB writes completed
     * @param packets      packets serialized on links (DATA and control)
     * @param events       simulator events run
     * @param simulatedPs  simulated time at the end
     * @param wallNanos    wall-clock time of the simulation loop
     */
    public record Result(int transfers, long packets, long events, long simulatedPs, long wallNanos) {
        /** Simulated packets per wall-clock second. */
        public double packetsPerSecond() {
            return packets * 1e9 / wallNanos;
        }
    }

    private TransportBench() {
    }

    /** Runs {@code transfers} writes one after the other and returns packets per wall second. */
    public static double packetsPerWallSecond(int transfers) {
        return run(transfers, 1).packetsPerSecond();
    }

    /** Runs {@code transfers} writes one after the other with simulator seed {@code seed}. */
    public static Result run(int transfers, long seed) {
        if (transfers <= 0) {
            throw new IllegalArgumentException("transfers must be positive, got " + transfers);
        }
        Simulator sim = new Simulator(seed, 4096);
        PacketPool pool = new PacketPool(256, 0);
        Network net = new Network(sim, "net", pool, COSTS, FullMesh.twoNodes());
        TransportEndpoint a = new TransportEndpoint(net, 0, null);
        TransportEndpoint b = new TransportEndpoint(net, 1, null);
        long[] state = new long[2]; // [0] completed writes, [1] tag mismatches
        ReliableSender[] sender = new ReliableSender[1];
        b.openReceiver(1, 0, 1, CONFIG, p -> {
            if (p.contentTag != tag(p.messageId, p.offset)) {
                state[1]++;
            }
            return SinkVerdict.ACCEPT;
        }, (id, len, op, addr) -> { });
        sender[0] = a.openSender(1, 1, 1, CONFIG, p -> {
            p.contentTag = tag(p.messageId, p.offset);
            return true;
        }, (id, status) -> {
            if (status != CompletionStatus.SUCCESS) {
                throw new IllegalStateException("benchmark write " + id + " ended " + status);
            }
            if (++state[0] < transfers) {
                sender[0].post(state[0], MESSAGE_BYTES, 0, 0);
            }
        });
        sender[0].post(0, MESSAGE_BYTES, 0, 0);
        sim.run();
        if (state[0] != transfers || state[1] != 0) {
            throw new IllegalStateException("benchmark ended with " + state[0] + " of " + transfers
                    + " writes and " + state[1] + " corrupt tags");
        }
        long packets = 0;
        for (Link l : net.topology().links()) {
            packets += ((org.pagefabric.sim.stat.Counter) sim.statistics().get(l.name() + ".packets")).value();
        }
        var summary = sim.summary();
        return new Result(transfers, packets, summary.events(), sim.now(), summary.wallNanos());
    }

    private static long tag(long messageId, long offset) {
        return RandomStream.mix64(messageId * 0x9E3779B97F4A7C15L ^ offset);
    }

    /** Prints a warmed-up measurement: {@code TransportBench [transfers]}. */
    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 2000;
        run(Math.max(1, n / 4), 1);
        Result r = run(n, 1);
        System.out.printf(java.util.Locale.ROOT, "%d x 1 MiB writes, %d packets, %d events, %.3f ms simulated, %.1f ms wall: %,.0f packets/s%n",
                r.transfers(), r.packets(), r.events(), Time.toSeconds(r.simulatedPs()) * 1e3, r.wallNanos() / 1e6,
                r.packetsPerSecond());
    }
}
