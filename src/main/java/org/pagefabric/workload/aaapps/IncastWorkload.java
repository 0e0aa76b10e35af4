package org.pagefabric.workload.aaapps;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.rma.DatagramRma;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;
import org.pagefabric.workload.AbstractWorkload;
import org.pagefabric.workload.Params;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.WorkloadDescriptor;
import org.pagefabric.workload.WorkloadParameter;
import org.pagefabric.workload.rma.RmaCosts;

/**
 * Contention at one port: {@code senders} processes, one per node, each send {@code messages}
 * transfers of {@code message_B} to one process on node 0, as datagrams over the network (the
 * datagram RMA of the Active Access applications), keeping at most {@code window} transfers
 * unacknowledged. Every sender's messages meet at node 0's link, where the packet model
 * interleaves their packets and the train model serves them train by train, so this is where
 * the two network models differ most. {@code comm_time_s} runs until the last word has arrived;
 * {@code throughput_MBps} is the bytes over that time. Every word is checked at the receiver
 * ({@code verified}).
 */
public final class IncastWorkload extends AbstractWorkload {
    /** The command-line name. */
    public static final String NAME = "incast";
    static final String SENDERS = "senders";
    static final String MESSAGES = "messages";
    static final String MESSAGE = "message_B";
    static final String WINDOW = "window";
    static final String COMM_TIME = "comm_time_s";
    static final String THROUGHPUT = "throughput_MBps";
    private static final int CHANNEL = 12;
    private static final int KIND = 0;

    /** The workload with its declared parameters. */
    public IncastWorkload() {
        super(WorkloadDescriptor.of(NAME, "N senders into one port: datagram transfers from senders nodes to node 0,"
                + " at most window unacknowledged each; communication time and throughput at the port")
                .ranks(p -> p.intValue(SENDERS) + 1).ownTraffic().parameters(
                WorkloadParameter.integer(SENDERS, 16, "", "sending nodes, one process each, all into node 0", 1, 4096),
                WorkloadParameter.integer(MESSAGES, 100, "", "transfers each sender sends", 1, 10_000_000),
                WorkloadParameter.integer(MESSAGE, 4096, "B", "bytes of one transfer, a multiple of 8", 8, 1 << 24),
                WorkloadParameter.integer(WINDOW, 4, "", "transfers a sender keeps unacknowledged", 1, 1 << 20))
                .higherIsBetter(THROUGHPUT).metrics(PointRun.metricsAfterVerified(List.of(COMM_TIME, THROUGHPUT)))
                // the data lives in the workload's own arrays; each node registers one page of segment
                .segment(Kernel.PAGE_SIZE).build());
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        int senders = params.intValue(SENDERS);
        long messages = params.longValue(MESSAGES);
        long bytes = params.longValue(MESSAGE);
        long window = params.longValue(WINDOW);
        if (bytes % 8 != 0) {
            throw new IllegalArgumentException(MESSAGE + ": " + bytes + " B; valid: a multiple of 8");
        }
        int words = (int) (bytes / 8);
        Simulator sim = job.simulator();
        long seed = sim.masterSeed();
        Receiver receiver = new Receiver(senders, words, seed);
        DatagramRma rma = new DatagramRma(null, "incast", job.cluster(), RmaCosts.of(job.cluster().profile()).datagram(), receiver,
                CHANNEL, senders + 1, 1, 8, false);
        receiver.rma = rma;
        receiver.sim = sim;
        for (int s = 1; s <= senders; s++) {
            int rank = s;
            new SimProcess(sim, "incast_sender" + s, ctx -> {
                long[] data = new long[words];
                for (long m = 0; m < messages; m++) {
                    if (m > 0 && m % window == 0) {
                        rma.flush(ctx, rank);
                    }
                    fill(data, seed, rank, m);
                    long t0 = ctx.now();
                    rma.sendWords(ctx, rank, 0, KIND, m, data, 0, words, true);
                    latencies.record(ctx.now() - t0);
                }
                rma.flush(ctx, rank);
            }).start();
        }
        long total = senders * messages * bytes;
        return Run.of(() -> receiver.transfers == senders * messages && receiver.intact, () -> {
            Map<String, Object> m = new LinkedHashMap<>();
            double seconds = receiver.lastArrival / (double) Time.S;
            m.put(COMM_TIME, Math.round(seconds * 1e9) / 1e9);
            m.put(THROUGHPUT, seconds > 0 ? Math.round(total / seconds / 1e6 * 1000) / 1000.0 : 0.0);
            return m;
        });
    }

    /** The words of transfer {@code m} of sender {@code rank}: what the receiver checks. */
    private static void fill(long[] data, long seed, int rank, long m) {
        for (int k = 0; k < data.length; k++) {
            data[k] = word(seed, rank, m, k);
        }
    }

    private static long word(long seed, int rank, long m, int k) {
        return RandomStream.mix64(seed ^ RandomStream.mix64((long) rank << 40 ^ m << 20 ^ k));
    }

    /** Node 0's process: checks every word, acknowledges each whole transfer. */
    private static final class Receiver implements DatagramRma.Target {
        final int[] left;
        final int words;
        final long seed;
        DatagramRma rma;
        Simulator sim;
        long transfers;
        long lastArrival;
        boolean intact = true;

        Receiver(int senders, int words, long seed) {
            this.left = new int[senders + 1];
            this.words = words;
            this.seed = seed;
        }

        @Override
        public void wordsArrived(int kind, int target, int source, long tag, int offset, int total,
                                 DatagramRma.Piece piece) {
            int n = piece.words();
            for (int k = 0; k < n; k++) {
                intact &= piece.word(k) == word(seed, source, tag, offset + k);
            }
            if (left[source] == 0) {
                left[source] = total;
            }
            left[source] -= n;
            if (left[source] == 0) {
                transfers++;
                lastArrival = sim.now();
                rma.acknowledge(target, source);
            }
        }
    }
}
