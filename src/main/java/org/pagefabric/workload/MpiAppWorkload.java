package org.pagefabric.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Bandwidth;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.param.MemoryParameters;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * MPI applications of 003 §4.4 (Table 2) on two-sided sends and receives: the Intel MPI
 * Benchmarks SendRecv, Allgatherv, Bcast, Reduce, Allreduce, Reduce_scatter and Exchange, each
 * over IMB's default message sizes (powers of two from {@code min_size_B} to {@code max_size_B})
 * with IMB's default repetitions per size (1000, fewer for large messages: at most 40 MiB per
 * size), and NAS IS class C (2^27 keys, 10 iterations). {@code problem_scale_pct} scales the
 * repetitions and IS's keys. Ranks are placed round-robin over the nodes. The metric is the
 * run time of the whole application; every message is checked against the bytes its origin
 * sent. Reductions are charged as memory-bound work at {@code memory.bandwidth} (read two
 * operands, write one); they do not change the buffers, so forwarded data stays checkable.
 */
public final class MpiAppWorkload extends AbstractWorkload {
    /** Column of the application. */
    public static final String APP = "app";
    /** Column of the node count. */
    public static final String NODES = "nodes";
    /** Column of the process count. */
    public static final String PROCESSES = "processes";
    /** Column of the problem scale. */
    public static final String SCALE = "problem_scale_pct";
    /** Column of the smallest IMB message. */
    public static final String MIN_SIZE = "min_size_B";
    /** Column of the largest IMB message. */
    public static final String MAX_SIZE = "max_size_B";
    /** Column of the message count. */
    public static final String MESSAGES = "messages";

    /** The applications, in Table 2's order. */
    public static final List<String> APPS = List.of("imb-sendrecv", "imb-allgatherv", "imb-bcast", "imb-reduce",
            "imb-allreduce", "imb-reduce-scatter", "imb-exchange", "npb-is-c");

    /** IMB_settings.h: MSGSPERSAMPLE, repetitions per message size. */
    private static final long IMB_REPETITIONS = 1000;
    /** IMB_settings.h: OVERALL_VOL, at most this many bytes per message size and process. */
    private static final long IMB_VOLUME = 40L << 20;
    /** NPB IS class C: TOTAL_KEYS_LOG_2 = 27. */
    private static final long IS_C_KEYS = 1L << 27;
    /** NPB IS: MAX_ITERATIONS. */
    private static final int IS_ITERATIONS = 10;
    /** NPB IS: keys are 4-byte INT_TYPE. */
    private static final int IS_KEY_BYTES = 4;
    /** NPB IS: NUM_BUCKETS_LOG_2 = 10 buckets of a 4-byte count. */
    private static final long IS_BUCKET_BYTES = 4L << 10;
    private static final long TAG = 0x4D50490000L;

    private static final List<WorkloadParameter> PARAMETERS = List.of(
            WorkloadParameter.choice(APP, "imb-sendrecv", "the application: an IMB benchmark or NAS IS class C", APPS),
            WorkloadParameter.integer(NODES, 2, "", "nodes the processes are spread over (round-robin)", 1, 64),
            WorkloadParameter.integer(PROCESSES, 4, "", "MPI processes", 2, 256),
            WorkloadParameter.integer(SCALE, 100, "", "percent of the full run: IMB repetitions per size, IS keys", 1,
                    100),
            WorkloadParameter.integer(MIN_SIZE, 1, "B", "smallest IMB message size", 1, 1 << 26),
            // IMB's default -msglog 22: up to 4 MiB
            WorkloadParameter.integer(MAX_SIZE, 4L << 20, "B", "largest IMB message size", 1, 1 << 26));

    private static final List<String> METRICS;

    static {
        METRICS = PointRun.metricsBeforeVerified(List.of("runtime_s", MESSAGES, "bytes_moved"));
    }

    /** The workload with its declared metadata. */
    public MpiAppWorkload() {
        super(WorkloadDescriptor.of("mpi-app", "IMB collectives and point-to-point patterns and NAS IS over two-sided"
                + " messages: application run time").ranks(p -> p.intValue(PROCESSES))
                .nodes(p -> Math.min(p.intValue(NODES), p.intValue(PROCESSES))).parameters(PARAMETERS)
                .lowerIsBetter("runtime_s").metrics(METRICS)
                // a send and a receive buffer, each large enough for the application's largest message set
                .segment(p -> 2 * bufferBytes(p))
                // its transfers are two-sided sends and receives
                .requires(Capability.SEND_RECEIVE).build());
    }

    private static long bufferBytes(Params params) {
        int p = params.intValue(PROCESSES);
        long bytes = params.is(APP, "npb-is-c") ? Math.max(isKeysPerRank(params) * IS_KEY_BYTES,
                Math.max(IS_BUCKET_BYTES, (long) p * Integer.BYTES)) : p * params.longValue(MAX_SIZE);
        return Math.ceilDiv(bytes, Kernel.PAGE_SIZE) * Kernel.PAGE_SIZE;
    }

    private static long isKeysPerRank(Params params) {
        long keys = Math.max(1, IS_C_KEYS * params.longValue(SCALE) / 100);
        int p = params.intValue(PROCESSES);
        return Math.max(p, keys / p);
    }

    /** The message sizes of an IMB run: powers of two from the smallest to the largest. */
    static List<Long> sizes(long min, long max) {
        List<Long> out = new ArrayList<>();
        for (long s = Long.highestOneBit(min) == min ? min : Long.highestOneBit(min) << 1; s <= max; s <<= 1) {
            out.add(s);
        }
        return out;
    }

    /** IMB's repetitions for one size, scaled. */
    static long repetitions(long size, long scalePct) {
        long full = Math.max(1, Math.min(IMB_REPETITIONS, IMB_VOLUME / size));
        return Math.max(1, full * scalePct / 100);
    }

    /** Every phase of the run for rank {@code r}: the steps and how many times they repeat. */
    static List<Phase> plan(String app, int r, int p, Params params) {
        List<Phase> phases = new ArrayList<>();
        long scale = params.longValue(SCALE);
        if (app.equals("npb-is-c")) {
            phases.add(new Phase(0, IS_ITERATIONS, MpiApp.isIteration(r, p, isKeysPerRank(params), IS_KEY_BYTES,
                    IS_BUCKET_BYTES)));
            return phases;
        }
        for (long m : sizes(params.longValue(MIN_SIZE), params.longValue(MAX_SIZE))) {
            List<MpiApp.Step> steps = switch (app) {
                case "imb-sendrecv" -> MpiApp.sendRecv(r, p, m);
                case "imb-exchange" -> MpiApp.exchange(r, p, m);
                case "imb-bcast" -> MpiApp.bcast(r, p, m);
                case "imb-reduce" -> MpiApp.reduce(r, p, m);
                case "imb-allreduce" -> MpiApp.allreduce(r, p, m);
                case "imb-reduce-scatter" -> MpiApp.reduceScatter(r, p, m);
                case "imb-allgatherv" -> MpiApp.allgatherv(r, p, m);
                default -> throw new IllegalArgumentException("unknown app " + app + "; valid: " + String.join(", ", APPS));
            };
            phases.add(new Phase(m, repetitions(m, scale), steps));
        }
        return phases;
    }

    /** A message size's steps, repeated. */
    record Phase(long size, long repetitions, List<MpiApp.Step> steps) {
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        String app = params.choice(APP);
        int p = job.ranks().size();
        long buffer = bufferBytes(params);
        Bandwidth memory = job.cluster().profile().bandwidth(MemoryParameters.BANDWIDTH);
        for (Rank r : job.ranks()) {
            DataCheck.fill(r, 0, buffer, TAG + r.id());
        }
        long[] messages = new long[1];
        long[] bytes = new long[1];
        long[] failed = new long[1];
        long[] end = new long[1];
        int[] finished = new int[1];
        for (Rank rank : job.ranks()) {
            List<Phase> phases = plan(app, rank.id(), p, params);
            new SimProcess(job.simulator(), rank.node(), "rank" + rank.id(), ctx -> {
                long[] sendSeq = new long[p];
                long[] recvSeq = new long[p];
                for (Phase ph : phases) {
                    for (long it = 0; it < ph.repetitions(); it++) {
                        long t0 = ctx.now();
                        for (MpiApp.Step s : ph.steps()) {
                            step(ctx, job, rank, s, buffer, sendSeq, recvSeq, memory, messages, bytes, failed);
                        }
                        if (rank.id() == 0) {
                            latencies.record(ctx.now() - t0);
                        }
                    }
                }
                finished[0]++;
                end[0] = Math.max(end[0], ctx.now());
            }).start();
        }
        return new Run() {
            @Override
            public double bytesPerSecond() {
                return end[0] == 0 ? 0 : bytes[0] / (end[0] / (double) Time.S);
            }

            @Override
            public boolean verified() {
                return failed[0] == 0 && finished[0] == p;
            }

            @Override
            public Map<String, Object> extraMetrics() {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put("runtime_s", Math.round(end[0] / (double) Time.S * 1e9) / 1e9);
                m.put(MESSAGES, messages[0]);
                m.put("bytes_moved", bytes[0]);
                return m;
            }
        };
    }

    /**
     * One step of one rank: post the receives, then the sends, wait for all, check every
     * received message against its origin's send buffer, then compute.
     */
    private static void step(ProcessContext ctx, Job job, Rank rank, MpiApp.Step s, long buffer, long[] sendSeq,
                             long[] recvSeq, Bandwidth memory, long[] messages, long[] bytes, long[] failed) {
        int p = sendSeq.length;
        int me = rank.id();
        int sends = 0;
        int recvs = 0;
        for (MpiApp.Op op : s.ops()) {
            if (!op.send()) {
                long id = (recvSeq[op.peer()]++) * p * p + (long) op.peer() * p + me;
                rank.receive(ctx, job.rank(op.peer()), buffer + op.offset(), op.length(), id);
                recvs++;
            }
        }
        for (MpiApp.Op op : s.ops()) {
            if (op.send()) {
                long id = (sendSeq[op.peer()]++) * p * p + (long) me * p + op.peer();
                long at = (op.buffer() == MpiApp.RECV_BUFFER ? buffer : 0) + op.offset();
                rank.send(ctx, job.rank(op.peer()), at, op.length(), id);
                sends++;
                messages[0]++;
                bytes[0] += op.length();
            }
        }
        for (int i = 0; i < sends; i++) {
            if (rank.awaitSend(ctx).status() != Outcome.SUCCESS) {
                failed[0]++;
            }
        }
        for (int i = 0; i < recvs; i++) {
            CompletionEntry wc = rank.awaitReceive(ctx);
            MpiApp.Op op = receiveOf(s, (int) (wc.wrId() % ((long) p * p) / p));
            boolean intact = wc.status() == Outcome.SUCCESS && op != null && wc.bytes() == op.length()
                    && matches(job, rank, s, wc);
            if (!intact) {
                failed[0]++;
            }
        }
        long work = 3 * s.reduceBytes() + 2 * s.computeBytes();
        if (work > 0) {
            ctx.sleep(memory.transferTimePs(work));
        }
    }

    /** The step's first receive from {@code peer}. */
    private static MpiApp.Op receiveOf(MpiApp.Step s, int peer) {
        for (MpiApp.Op op : s.ops()) {
            if (!op.send() && op.peer() == peer) {
                return op;
            }
        }
        return null;
    }

    /** Whether some receive of the step from the completion's source holds exactly its origin's bytes. */
    private static boolean matches(Job job, Rank rank, MpiApp.Step s, CompletionEntry wc) {
        int p = job.ranks().size();
        int peer = (int) (wc.wrId() % ((long) p * p) / p);
        long buffer = (rank.segmentLength()) / 2;
        for (MpiApp.Op op : s.ops()) {
            if (!op.send() && op.peer() == peer && DataCheck.same(rank, buffer + op.offset(), job.rank(op.origin()),
                    op.originOffset(), op.length())) {
                return true;
            }
        }
        return false;
    }
}
