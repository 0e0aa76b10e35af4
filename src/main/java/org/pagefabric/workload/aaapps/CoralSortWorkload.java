package org.pagefabric.workload.aaapps;

import java.util.List;
import java.util.Map;
import org.pagefabric.active.ActiveCosts;
import org.pagefabric.comm.Job;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;
import org.pagefabric.workload.Params;
import org.pagefabric.workload.WorkloadParameter;

/**
 * The fault-tolerant parallel sort of 002 §5.2.4 (Fig. 9b; Fig. 8 for its power): an RMA
 * version of the CORAL parallel sort that moves data with gets instead of messages, made
 * fault-tolerant by logging every get at the process it read. {@code data_MiB} of uniformly
 * random 8-byte keys are spread over the processes, each sorts its share locally (before the
 * timed part) and cuts it into one bucket per process at fixed splitters (the keys' range in
 * equal parts, so no splitter exchange is needed). Process {@code j} then gets, from every other
 * process {@code i} in turn, the offsets of its bucket {@code j} (one 16-byte get) and the
 * bucket's keys in gets of at most {@code chunk_B} (4 KiB: an active get is one PCIe
 * transaction, 002 §3.7). Each get is logged at the target as in {@link LoggedGetsWorkload}:
 * by the target's IOMMU ({@code aa}), by putting the data back ({@code rma}), by a message
 * ({@code am}), or not at all ({@code no-ft}).
 *
 * <p>{@code comm_time_s} is the time from the start of the exchange until every key has arrived
 * and every get is logged. Afterwards what the processes received is checked to merge into a
 * sequence sorted across processes and to be a permutation of the input (count and digest of the
 * keys), and every log to hold exactly the gets that read it ({@code verified}). Keys are real
 * words carried in the datagrams of the {@link AppFabric}.
 */
public final class CoralSortWorkload extends AppWorkload {
    /** The command-line name. */
    public static final String NAME = "coral-sort";
    static final String DATA = "data_MiB";
    static final String CHUNK = "chunk_B";
    static final String COMM_TIME = "comm_time_s";
    private static final long KEY_RANGE = 1L << 62;

    /** The workload with its declared parameters. */
    public CoralSortWorkload() {
        super(NAME, "fault-tolerant parallel sort with gets (002 §5.2.4): communication time of sorting data_MiB"
                + " with every get logged at its target; result verified sorted and a permutation", List.of(
                WorkloadParameter.integer(DATA, 16, "MiB", "data sorted over all processes (002 §5.2.4: 1 GB)", 1,
                        1 << 16),
                WorkloadParameter.integer(CHUNK, 4096, "B", "largest get, a multiple of 8 (active gets: at most"
                        + " aa.max_access)", 8, 1 << 20)),
                COMM_TIME, false, List.of(COMM_TIME, "gets", "logged_entries"));
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        AppScheme scheme = scheme(job, params);
        int processes = processes(params);
        long chunk = params.longValue(CHUNK);
        int maxAccess = ActiveCosts.of(job.cluster().profile()).maxAccessBytes();
        if (chunk % 8 != 0 || scheme == AppScheme.ACTIVE && chunk > maxAccess) {
            throw new IllegalArgumentException(CHUNK + ": " + chunk + " B; valid: a multiple of 8, at most " + maxAccess
                    + " (aa.max_access) under Active Access");
        }
        long keys = params.longValue(DATA) * (1L << 20) / 8;
        if (keys > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(DATA + ": " + params.longValue(DATA) + " MiB is more keys than one simulation"
                    + " holds; valid: up to 16383");
        }
        Simulator sim = job.simulator();
        State s = new State(processes, scheme, keys, sim.masterSeed());
        AppFabric fabric = fabric(job, params, s, scheme, true, false);
        s.fabric = fabric;
        s.nodes = job.cluster().size();
        int chunkWords = (int) (chunk / 8);
        long interval = fabric.costs().pollIntervalPs();
        for (int r = 0; r < processes; r++) {
            int j = r;
            new SimProcess(sim, "sort_rank" + r, ctx -> {
                long[] nextPoll = {interval};
                long seq = 0;
                long[] offsets = new long[2 * processes];
                int total = 0;
                for (int k = 1; k < processes; k++) {
                    int i = (j + k) % processes;
                    s.pollIfAm(ctx, j, nextPoll, interval);
                    s.loggedGet(ctx, j, i, AppFabric.DESCRIPTORS, j, 2, offsets, 2 * i, seq++);
                    total += (int) (offsets[2 * i + 1] - offsets[2 * i]);
                }
                int own = (int) (s.desc[j][j + 1] - s.desc[j][j]);
                long[] recv = new long[total + own];
                System.arraycopy(s.keys[j], (int) s.desc[j][j], recv, 0, own);
                int at = own;
                for (int k = 1; k < processes; k++) {
                    int i = (j + k) % processes;
                    int lo = (int) offsets[2 * i];
                    int n = (int) (offsets[2 * i + 1] - lo);
                    for (int off = 0; off < n; off += chunkWords) {
                        int w = Math.min(chunkWords, n - off);
                        s.pollIfAm(ctx, j, nextPoll, interval);
                        long t0 = ctx.now();
                        s.loggedGet(ctx, j, i, AppFabric.DATA, lo + off, w, recv, at + off, seq++);
                        latencies.record(ctx.now() - t0);
                    }
                    at += n;
                }
                s.received[j] = recv;
                s.finish(ctx, j, interval, nextPoll);
            }).start();
        }
        return s;
    }

    /**
     * The sort's input: every process's keys, sorted locally, and the bucket offsets into them.
     * It depends only on the seed, the processes and the key count, and the simulation only reads
     * it, so the points of an experiment that share those (every topology and scheme of a
     * figure) share one copy: made once, held softly so that a tight heap may drop it.
     */
    record Input(long seed, int processes, long total, long[][] keys, long[][] desc, long digest) {
        private static java.lang.ref.SoftReference<Input> last = new java.lang.ref.SoftReference<>(null);

        /** The input for these, made now or shared with an earlier point. */
        static synchronized Input of(int processes, long total, long seed) {
            Input in = last.get();
            if (in == null || in.seed != seed || in.processes != processes || in.total != total) {
                in = make(processes, total, seed);
                last = new java.lang.ref.SoftReference<>(in);
            }
            return in;
        }

        private static Input make(int processes, long total, long seed) {
            long[][] keys = new long[processes][];
            long[][] desc = new long[processes][];
            long digest = 0;
            long width = KEY_RANGE / processes;
            KeySort sorter = new KeySort();
            for (int r = 0; r < processes; r++) {
                int n = (int) (total / processes + (r < total % processes ? 1 : 0));
                RandomStream rnd = new RandomStream(RandomStream.deriveSeed(seed, "coral_sort.keys" + r));
                long[] k = new long[n];
                for (int x = 0; x < n; x++) {
                    k[x] = rnd.nextLong(KEY_RANGE);
                    digest += RandomStream.mix64(k[x]);
                }
                sorter.sort(k); // the local sort comes before the timed exchange
                keys[r] = k;
                long[] d = new long[processes + 1];
                int pos = 0;
                for (int b = 0; b < processes; b++) {
                    d[b] = pos;
                    long upper = b == processes - 1 ? Long.MAX_VALUE : (b + 1) * width;
                    while (pos < n && k[pos] < upper) {
                        pos++;
                    }
                }
                d[processes] = n;
                desc[r] = d;
            }
            return new Input(seed, processes, total, keys, desc, digest);
        }
    }

    private static final class State extends GetLogState {
        final long[][] keys;
        final long[][] desc;
        final long[][] received;
        final long inputCount;
        final long inputDigest;

        State(int processes, AppScheme scheme, long total, long seed) {
            super(processes, scheme);
            Input in = Input.of(processes, total, seed);
            this.keys = in.keys();
            this.desc = in.desc();
            this.received = new long[processes][];
            this.inputCount = total;
            this.inputDigest = in.digest();
        }

        @Override
        public long[] memory(int rank, int region) {
            return region == AppFabric.DESCRIPTORS ? desc[rank] : keys[rank];
        }

        @Override
        public boolean verified() {
            return logsVerified() && SortCheck.sortedPermutation(received, inputCount, inputDigest);
        }

        @Override
        public Map<String, Object> extraMetrics() {
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            m.put(COMM_TIME, Math.round(finishedAt() / (double) Time.S * 1e9) / 1e9);
            m.put("gets", gets);
            m.putAll(common());
            traffic(m, fabric, nodes);
            return m;
        }
    }
}
