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
 * Logging of RMA gets for fault tolerance (002 §4.4, §5.2.3, Fig. 9a): every process issues
 * {@code gets_per_process} blocking gets of {@code get_size_B} bytes (one 8-byte integer in the
 * seed) from random other processes, and each get's data is logged at the target it read:
 * <ul>
 *   <li>{@code aa}: the target's IOMMU replicates the data the read reply carries into the
 *       target's access log (R=1 RL=1 RLD=1); its polling thread consumes the entries;
 *   <li>{@code rma}: the source puts the data it fetched back to the target's log;
 *   <li>{@code am}: the source sends it back in a message the target copies into its log when it
 *       polls ({@code am.poll_interval});
 *   <li>{@code no-ft}: no logging, the best case.
 * </ul>
 * {@code gets_per_s} counts the gets over the time until the last one is logged. Every get's
 * data is checked against the target's memory, and every target's log against the gets that
 * read it, in issue order per source ({@code verified}). Runs on the datagram {@link AppFabric}.
 */
public final class LoggedGetsWorkload extends AppWorkload {
    /** The command-line name. */
    public static final String NAME = "logged-gets";
    static final String GET_SIZE = "get_size_B";
    static final String GETS = "gets_per_process";
    static final String WORDS = "words_per_process";
    static final String GETS_PER_S = "gets_per_s";
    static final String RUN_TIME = "run_time_us";

    /** The workload with its declared parameters. */
    public LoggedGetsWorkload() {
        super(NAME, "logged gets (002 §4.4, §5.2.3): gets/s to random processes with each get's data logged at"
                + " its target, every log verified", List.of(
                WorkloadParameter.integer(GET_SIZE, 8, "B", "bytes each get reads (002 §5.2.3: one 8-byte integer)", 8,
                        1 << 20),
                compRatio(),
                WorkloadParameter.integer(GETS, 10000, "", "gets each process issues", 1, 100_000_000),
                WorkloadParameter.integer(WORDS, 512, "", "8-byte words of data each process exposes to gets", 1,
                        1 << 24)),
                GETS_PER_S, true, List.of(GETS_PER_S, RUN_TIME, "logged_entries"));
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        AppScheme scheme = scheme(job, params);
        int processes = processes(params);
        double comp = compRatio(params, "get");
        long size = params.longValue(GET_SIZE);
        int maxAccess = ActiveCosts.of(job.cluster().profile()).maxAccessBytes();
        int memWords = params.intValue(WORDS);
        if (size % 8 != 0 || size > maxAccess || size / 8 > memWords) {
            throw new IllegalArgumentException(GET_SIZE + ": " + size + " B per get; valid: multiples of 8"
                    + " up to " + Math.min(maxAccess, 8L * memWords) + " (aa.max_access and " + WORDS + ")");
        }
        int words = (int) (size / 8);
        long perProcess = params.longValue(GETS);
        Simulator sim = job.simulator();
        State s = new State(processes, scheme, memWords, sim.masterSeed());
        AppFabric fabric = fabric(job, params, s, scheme, true, false);
        s.fabric = fabric;
        s.nodes = job.cluster().size();
        long interval = fabric.costs().pollIntervalPs();
        for (int r = 0; r < processes; r++) {
            int rank = r;
            new SimProcess(sim, "gets_rank" + r, ctx -> {
                RandomStream rnd = ctx.random();
                long[] buf = new long[words];
                long[] nextPoll = {interval};
                long last = 0;
                for (long i = 0; i < perProcess; i++) {
                    s.pollIfAm(ctx, rank, nextPoll, interval);
                    if (comp > 0 && last > 0) {
                        ctx.sleep(Math.round(last * comp / (1 - comp)));
                    }
                    int t = rnd.nextInt(processes - 1);
                    int target = t >= rank ? t + 1 : t;
                    int at = rnd.nextInt(memWords - words + 1);
                    long t0 = ctx.now();
                    s.loggedGet(ctx, rank, target, AppFabric.DATA, at, words, buf, 0, i);
                    last = ctx.now() - t0;
                    latencies.record(last);
                }
                s.finish(ctx, rank, interval, nextPoll);
            }).start();
        }
        return s;
    }

    private static final class State extends GetLogState {
        final long[][] data;

        State(int processes, AppScheme scheme, int words, long seed) {
            super(processes, scheme);
            this.data = new long[processes][words];
            for (int r = 0; r < processes; r++) {
                RandomStream rnd = new RandomStream(RandomStream.deriveSeed(seed, "logged_gets.data" + r));
                for (int k = 0; k < words; k++) {
                    data[r][k] = rnd.nextLong();
                }
            }
        }

        @Override
        public long[] memory(int rank, int region) {
            return data[rank];
        }

        @Override
        public boolean verified() {
            return logsVerified();
        }

        @Override
        public Map<String, Object> extraMetrics() {
            Map<String, Object> m = new java.util.LinkedHashMap<>();
            long span = finishedAt();
            m.put(GETS_PER_S, span <= 0 ? 0 : round(gets / (span / (double) Time.S)));
            m.put(RUN_TIME, round(Time.toMicros(span)));
            m.putAll(common());
            traffic(m, fabric, nodes);
            return m;
        }
    }
}
