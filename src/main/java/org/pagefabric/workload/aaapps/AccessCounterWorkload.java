package org.pagefabric.workload.aaapps;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.workload.rma.StallWatch;
import org.pagefabric.comm.Job;
import org.pagefabric.hw.iommu.aa.AccessKind;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;
import org.pagefabric.workload.Params;
import org.pagefabric.workload.WorkloadParameter;

/**
 * The access counter of 002 §4.2 and §5.2.2 (Fig. 7d): every process makes
 * {@code accesses_per_process} one-word puts to random pages ({@code pages_per_process} per
 * process) of the other processes' data, and the accesses to each page are counted:
 * <ul>
 *   <li>{@code aa} (under aa-poll, aa-int or aa-sp): the target's IOMMU logs each
 *       put's metadata (W=1 WL=1 WLD=0) and its polling thread counts the entry;
 *   <li>{@code rma}: the source follows each put with a blocking remote fetch-and-add on the
 *       page's counter, run by the target NIC's atomic unit;
 *   <li>{@code akv}: the access goes to the target's active key-value store as a message that
 *       the target process handles (write and count) when it polls, every {@code am.poll_interval};
 *   <li>{@code allreduce}: the source counts locally and the counts are summed with a recursive
 *       doubling Allreduce of the whole count vector at the end;
 *   <li>{@code no-count}: the puts alone.
 * </ul>
 * {@code accesses_per_s} is the accesses over the time until every count is final. Every count
 * is checked against the accesses made ({@code verified}), and every put must have landed.
 * Runs on the datagram {@link AppFabric} (1024 processes in one simulation).
 */
public final class AccessCounterWorkload extends AppWorkload {
    /** The command-line name. */
    public static final String NAME = "access-counter";
    static final String ACCESSES = "accesses_per_process";
    static final String PAGES = "pages_per_process";
    static final String ACCESSES_PER_S = "accesses_per_s";
    static final String COUNT_TIME = "count_time_us";

    /** The workload with its declared parameters. */
    public AccessCounterWorkload() {
        super(NAME, "access counter (002 §4.2, §5.2.2): accesses/s while counting the puts to each page,"
                + " every count verified", List.of(
                compRatio(),
                WorkloadParameter.integer(ACCESSES, 10000, "", "accesses (one-word puts) each process makes", 1,
                        100_000_000),
                WorkloadParameter.integer(PAGES, 1, "", "counted pages of data per process", 1, 4096)),
                ACCESSES_PER_S, true, List.of(ACCESSES_PER_S, COUNT_TIME));
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        AppScheme scheme = scheme(job, params);
        int processes = processes(params);
        double comp = compRatio(params, "access");
        long perProcess = params.longValue(ACCESSES);
        int pages = params.intValue(PAGES);
        Simulator sim = job.simulator();
        State s = new State(processes, pages, scheme);
        AppFabric fabric = fabric(job, params, s, scheme, false, true);
        s.fabric = fabric;
        s.nodes = job.cluster().size();
        s.total = processes * perProcess;
        long memoryPs = fabric.costs().memoryPs();
        long interval = fabric.costs().pollIntervalPs();
        for (int r = 0; r < processes; r++) {
            int rank = r;
            new SimProcess(sim, "counter_rank" + r, ctx -> {
                RandomStream rnd = ctx.random();
                long[] local = scheme == AppScheme.ALLREDUCE ? new long[processes * pages] : null;
                long nextPoll = interval;
                long last = 0;
                for (long i = 0; i < perProcess; i++) {
                    if (scheme == AppScheme.AKV && ctx.now() >= nextPoll) {
                        s.poll(ctx, rank);
                        nextPoll = ctx.now() + interval;
                    }
                    if (comp > 0 && last > 0) {
                        ctx.sleep(Math.round(last * comp / (1 - comp)));
                    }
                    int t = rnd.nextInt(processes - 1);
                    int target = t >= rank ? t + 1 : t;
                    int page = rnd.nextInt(pages);
                    long value = RandomStream.mix64((long) rank << 32 | i);
                    s.expected[target * pages + page]++;
                    long t0 = ctx.now();
                    switch (scheme) {
                        case AKV -> fabric.akv(ctx, rank, target, page, value);
                        case RMA -> {
                            fabric.put(ctx, rank, target, page, value);
                            fabric.fetchAdd(ctx, rank, target, page);
                        }
                        case ALLREDUCE -> {
                            fabric.put(ctx, rank, target, page, value);
                            local[target * pages + page]++;
                            ctx.sleep(memoryPs);
                        }
                        default -> fabric.put(ctx, rank, target, page, value);
                    }
                    last = ctx.now() - t0;
                    latencies.record(last);
                }
                s.end = Math.max(s.end, ctx.now());
                if (scheme == AppScheme.AKV) {
                    long waitingSince = ctx.now();
                    while (s.handled < s.total && !s.stall.lostForGood(ctx.now(), waitingSince)) {
                        if (nextPoll > ctx.now()) {
                            ctx.sleep(nextPoll - ctx.now());
                        }
                        s.poll(ctx, rank);
                        nextPoll = ctx.now() + interval;
                    }
                } else if (scheme == AppScheme.ALLREDUCE) {
                    long[] sum = Allreduce.sum(ctx, fabric, rank, processes, local, memoryPs);
                    s.reduced[rank] = sum;
                    s.end = Math.max(s.end, ctx.now());
                }
            }).start();
        }
        return s;
    }

    /** The counts, the expectations and the run's outcome. */
    private static final class State implements Run, AppFabric.Hooks {
        final int processes;
        final int pages;
        final AppScheme scheme;
        final long[] counts;
        final long[] expected;
        final long[][] reduced;
        AppFabric fabric;
        int nodes;
        long total;
        long landed;
        long handled;
        long lastLanded;
        long lastHandled;
        long end;
        final StallWatch stall = new StallWatch();

        State(int processes, int pages, AppScheme scheme) {
            this.processes = processes;
            this.pages = pages;
            this.scheme = scheme;
            this.counts = new long[processes * pages];
            this.expected = new long[processes * pages];
            this.reduced = new long[scheme == AppScheme.ALLREDUCE ? processes : 0][];
        }

        void poll(org.pagefabric.sim.process.ProcessContext ctx, int rank) {
            long before = handled;
            ctx.sleep(fabric.pollInbox(rank));
            if (handled > before) {
                lastHandled = Math.max(lastHandled, ctx.now());
            }
        }

        @Override
        public long[] memory(int rank, int region) {
            throw new IllegalStateException("the access counter issues no gets");
        }

        @Override
        public void putLanded(int target, int source, long page, long value) {
            landed++;
            lastLanded = Math.max(lastLanded, fabric.simulator().now());
        }

        @Override
        public long fetchAdd(int target, long page) {
            return counts[target * pages + (int) page]++;
        }

        @Override
        public long handleLogEntry(int target, int kind, int source, long page, long value, int bytes) {
            if (kind != AccessKind.PUT) {
                throw new IllegalStateException("counter log of process " + target + " holds a " + AccessKind.name(kind));
            }
            counts[target * pages + (int) page]++;
            return fabric.costs().memoryPs(); // the handler increments the page's counter
        }

        @Override
        public void logged(int target, int source, long seq, long digest) {
            throw new IllegalStateException("the access counter logs no gets");
        }

        @Override
        public long akv(int target, int source, long page, long value) {
            counts[target * pages + (int) page]++;
            landed++;
            handled++;
            stall.progress(fabric.simulator().now());
            return 2 * fabric.costs().memoryPs(); // the store writes the value and its counter
        }

        long finalAt() {
            return switch (scheme) {
                case ACTIVE -> Math.max(fabric.lastHandledAt(), Math.max(lastLanded, end));
                case AKV -> Math.max(lastHandled, end);
                default -> Math.max(lastLanded, end);
            };
        }

        @Override
        public double bytesPerSecond() {
            return 0;
        }

        @Override
        public boolean verified() {
            if (landed != total) {
                return false;
            }
            return switch (scheme) {
                case NONE -> true;
                case ALLREDUCE -> {
                    for (long[] r : reduced) {
                        if (r == null || !java.util.Arrays.equals(r, expected)) {
                            yield false;
                        }
                    }
                    yield true;
                }
                default -> java.util.Arrays.equals(counts, expected);
            };
        }

        @Override
        public Map<String, Object> extraMetrics() {
            Map<String, Object> m = new LinkedHashMap<>();
            long span = finalAt();
            m.put(ACCESSES_PER_S, span <= 0 ? 0 : round(total / (span / (double) Time.S)));
            m.put(COUNT_TIME, round(Time.toMicros(span)));
            traffic(m, fabric, nodes);
            return m;
        }
    }
}
