package org.pagefabric.workload.dht;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.config.Profile;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;
import org.pagefabric.workload.AbstractWorkload;
import org.pagefabric.comm.Job;
import org.pagefabric.workload.PointRun;
import org.pagefabric.comm.Rank;
import org.pagefabric.workload.StandardParameters;
import org.pagefabric.workload.Workload;
import org.pagefabric.workload.WorkloadParameter;

/**
 * The distributed hashtable of 002 §4.1 and §5.2.1: every process owns a volume (a table of
 * {@code volume_elements} cells and an overflow heap) and inserts {@code iterations}
 * elements of {@code size_B} bytes into the volumes of other processes, {@code processes_per_node} processes per node.
 * A share {@code collision_rate} of the inserts goes to a table cell the process filled before
 * (a hash collision, handled in the overflow heap); a share {@code comp_ratio} of each process's
 * time is local computation. How an element reaches its volume is the policy's
 * {@link DhtScheme}. After the run every volume is scanned: every inserted element must be
 * there exactly once, in the volume and cell its hash names.
 *
 * <p>Scale: volumes are sparse and processes are light, the job connects no queue pairs (the
 * traffic is datagrams), and the network is the profile's topology: 1024 nodes of 32 processes
 * run in one simulation (see {@code pagefabric bench dht}).
 */
public final class DhtInsertWorkload extends AbstractWorkload {
    /** The command-line name. */
    public static final String NAME = "dht-insert";
    static final String PROCESSES = "processes";
    static final String PER_NODE = "processes_per_node";
    static final String COLLISION_RATE = "collision_rate";
    static final String COMP_RATIO = "comp_ratio";
    static final String VOLUME = "volume_elements";
    static final String HEAP = "heap_elements";
    static final String INSERTS = StandardParameters.ITERATIONS;
    static final String ONLOAD = "onload_cores";

    /** Metric columns this workload adds. */
    public static final String INSERTS_PER_S = "inserts_per_s";
    static final String COLLISIONS_PCT = "collisions_pct";
    static final String ACCESSES_PER_COLLIDING = "remote_accesses_per_insert";
    static final String INSERT_TIME = "insert_time_us";
    static final String ONLOAD_USED = "best_onload_cores";

    private static final int RECENT = 32;
    private static final List<String> METRICS;

    static {
        List<String> m = new ArrayList<>(PointRun.METRICS);
        m.addAll(m.indexOf("verified") + 1, List.of(INSERTS_PER_S, COLLISIONS_PCT, ACCESSES_PER_COLLIDING, INSERT_TIME,
                ONLOAD_USED));
        METRICS = List.copyOf(m);
    }

    /** The workload with its declared parameters. */
    public DhtInsertWorkload() {
        super(NAME, "distributed hashtable inserts (002 §4.1, §5.2.1): inserts/s over processes, collisions and"
                + " computation, every element verified in its volume", 2, List.of(
                StandardParameters.size(8), StandardParameters.iterations(),
                WorkloadParameter.integer(PROCESSES, 64, "", "inserting processes, one volume each", 1,
                        DhtHash.MAX_VOLUMES - 1),
                WorkloadParameter.integer(PER_NODE, 32, "", "processes per node (002 §5.2: 32)", 1, 1024),
                WorkloadParameter.decimal(COLLISION_RATE, 0.05, "", "share of inserts whose table cell is taken"
                        + " (R_cols)", 0, 1),
                WorkloadParameter.decimal(COMP_RATIO, 0, "", "share of each process's time spent computing (R_comp),"
                        + " below 1", 0, 1),
                WorkloadParameter.integer(VOLUME, 1L << 21, "", "table cells per volume (002 §5.2.1: 2^21)", 1,
                        DhtHash.MAX_TABLE),
                WorkloadParameter.integer(HEAP, 0, "", "overflow heap cells per volume; 0: as many as volume_elements",
                        0, DhtHash.MAX_TABLE),
                WorkloadParameter.integer(ONLOAD, 0, "", "AM-Onload handler cores per node; 0 or best: run every C from"
                        + " 1 to processes_per_node - 1 and keep the fastest (002 §5.2.1)", 0, 1023)),
                INSERTS_PER_S, true);
    }

    @Override
    public Map<String, Object> resolve(Map<String, ?> given) {
        if (given.get(ONLOAD) instanceof String s && s.strip().equals("best")) {
            Map<String, Object> copy = new LinkedHashMap<>(given);
            copy.put(ONLOAD, 0L);
            return super.resolve(copy);
        }
        return super.resolve(given);
    }

    /** {@code onload_cores: best} in a grid is stored as 0, as {@link #resolve} stores it. */
    @Override
    public Object coerce(WorkloadParameter p, Object value) {
        if (p.name().equals(ONLOAD) && value instanceof String s && s.strip().equals("best")) {
            return 0L;
        }
        return p.coerce(value);
    }

    @Override
    public int ranks(Map<String, Object> params) {
        long processes = (Long) params.get(PROCESSES);
        long perNode = processes == 1 ? 1 : (Long) params.get(PER_NODE);
        return (int) Math.max(2, Math.ceilDiv(Math.max(processes, 2), perNode));
    }

    @Override
    public boolean connectsRanks() {
        return false;
    }

    /** The volumes live in the workload's sparse model; each node registers one page of segment. */
    @Override
    public long segmentBytes(Map<String, Object> params) {
        return Kernel.PAGE_SIZE;
    }

    @Override
    public List<String> metrics() {
        return METRICS;
    }

    @Override
    public Run start(Job job, Map<String, Object> params, LatencyHistogram latencies) {
        RegistrationPolicy policy = job.policy();
        if (!(policy instanceof DhtSchemeProvider provider)) {
            throw new PolicyRefusal("policy '" + policy.name() + "' has no hashtable scheme; " + NAME
                    + " runs under: " + String.join(", ", schemePolicies(job.cluster().profile())));
        }
        int processes = (int) (long) (Long) params.get(PROCESSES);
        int perNode = (int) (long) (Long) params.get(PER_NODE);
        double comp = (Double) params.get(COMP_RATIO);
        if (comp >= 1) {
            throw new IllegalArgumentException(COMP_RATIO + ": " + comp + " leaves no time to insert; valid: 0 to below 1");
        }
        long onload = (Long) params.get(ONLOAD);
        DhtScheme scheme = provider.newDhtScheme();
        long onloadUsed = -1;
        if (scheme.usesOnloadCores()) {
            int maxCores = processes == 1 ? 0 : perNode - 1;
            if (maxCores < 1 || onload > maxCores) {
                throw new IllegalArgumentException(ONLOAD + ": " + onload + " handler cores leave no inserting core on"
                        + " nodes of " + perNode + " processes; valid: best (0) or 1 to " + Math.max(1, maxCores)
                        + " with processes_per_node >= 2");
            }
            onloadUsed = onload != 0 ? onload : bestOnloadCores(job, params, maxCores, true).cores();
        }
        Outcome out = launch(job, params, scheme, onloadUsed);
        out.bestMode = scheme.usesOnloadCores() && onload == 0;
        return out;
    }

    /**
     * 002 §5.2.1: AM-Onload runs every C and keeps the one with the highest insert rate (the
     * smallest C among equals). Each trial is a simulation of its own, stopped only once its
     * clock proves that it cannot win. Its rate is inserts / span, and {@link Trial#leastEnd}
     * bounds its end from below: the time already simulated; that time plus the most inserts
     * any of its processes has not begun times the least time an insert costs a process
     * ({@link DhtScheme#minInsertPs}); and the scheme's own bound on when its handlers can have
     * applied what is still unapplied ({@link DhtScheme#appliedNoEarlierThan}). Trials run
     * best-first, in decreasing order of the rate their bound allows before they start (then by
     * C), so that a good C is found early and the others are stopped soon; the bound is checked
     * every 1/64 of the span at which a trial would only tie the best. The choice is the one an
     * exhaustive search makes (order and stops change only which tails are not simulated).
     */
    BestSearch bestOnloadCores(Job job, Map<String, Object> params, int maxCores, boolean cut) {
        Long[] order = new Long[maxCores];
        double[] optimistic = new double[maxCores + 1];
        for (long c = 1; c <= maxCores; c++) {
            order[(int) c - 1] = c;
            if (cut) {
                Trial t = trial(job, params, c);
                optimistic[(int) c] = t.out().rateAtSpan(t.leastEnd() - t.out().start);
                SimProcess.closeAll(t.sim());
            }
        }
        java.util.Arrays.sort(order, (x, y) -> {
            int byBound = Double.compare(optimistic[(int) (long) y], optimistic[(int) (long) x]);
            return byBound != 0 ? byBound : Long.compare(x, y);
        });
        long best = Long.MAX_VALUE;
        double bestRate = -1;
        int cutTrials = 0;
        for (long c : order) {
            Trial t = trial(job, params, c);
            Outcome o = t.out();
            // A smaller C wins a tie, so it must be strictly slower to lose.
            boolean strict = c < best;
            long deadline = cut && bestRate > 0 ? lossDeadline(o, bestRate, strict) : Time.NEVER;
            boolean lost = false;
            if (deadline == Time.NEVER) {
                t.sim().run();
            } else {
                lost = t.runUntilLost(deadline, bestRate, strict);
            }
            if (lost) {
                cutTrials++;
                SimProcess.closeAll(t.sim());
                continue;
            }
            if (!o.finished()) {
                SimProcess.checkNoDeadlock(t.sim());
                throw new IllegalStateException("AM-Onload trial with C=" + c + " ended before every element"
                        + " was applied");
            }
            SimProcess.checkNoDeadlock(t.sim());
            SimProcess.closeAll(t.sim());
            double rate = o.insertsPerSecond();
            if (rate > bestRate || rate == bestRate && c < best) {
                bestRate = rate;
                best = c;
            }
        }
        return new BestSearch(best, bestRate, cutTrials);
    }

    private Trial trial(Job job, Map<String, Object> params, long c) {
        Profile profile = job.cluster().profile();
        Map<String, Object> p = new LinkedHashMap<>(params);
        p.put(ONLOAD, c);
        Simulator sim = new Simulator(job.simulator().masterSeed());
        RegistrationPolicy policy = PolicyRegistry.standard().create(job.policy().name(), profile);
        Job trial = new Job(sim, profile, nodes(p), segmentBytes(p), policy, false);
        DhtScheme scheme = ((DhtSchemeProvider) policy).newDhtScheme();
        return new Trial(sim, scheme, launch(trial, p, scheme, c));
    }

    /** One AM-Onload trial of the search over C. */
    private record Trial(Simulator sim, DhtScheme scheme, Outcome out) {
        /** The earliest the run can end, from what the clock shows now (see {@link #bestOnloadCores}). */
        long leastEnd() {
            long now = sim.now();
            long least = now;
            long unstarted = out.mostUnstartedInserts();
            long perInsert = scheme.minInsertPs(out.dht);
            if (perInsert > 0 && unstarted > 0 && unstarted <= (Long.MAX_VALUE / 4 - now) / perInsert) {
                least = Math.max(least, now + unstarted * perInsert);
            }
            return Math.max(least, scheme.appliedNoEarlierThan(out.dht.unapplied()));
        }

        /**
         * Runs in slices until the trial finishes (false) or its least end proves its rate
         * cannot beat {@code bestRate} (true; left unfinished).
         */
        boolean runUntilLost(long deadline, double bestRate, boolean strict) {
            long slice = Math.max(1, (deadline - out.start) / 64);
            long t = out.start;
            while (true) {
                t = Math.min(deadline, t + slice);
                sim.runUntil(t);
                if (out.finished() || sim.pendingEvents() == 0) {
                    return false;
                }
                if (t >= deadline) {
                    // Unfinished at the deadline: it ends later, so its rate cannot win.
                    return true;
                }
                double most = out.rateAtSpan(leastEnd() - out.start);
                if (strict ? most < bestRate : most <= bestRate) {
                    return true;
                }
            }
        }
    }

    /**
     * The outcome of the search over C.
     *
     * @param cores     the C with the highest insert rate (the smallest among equals)
     * @param rate      its inserts per second
     * @param cutTrials trials stopped early because they could no longer win
     */
    record BestSearch(long cores, double rate, int cutTrials) {
    }

    /**
     * The simulated time after which a run that has not finished cannot have a rate above
     * {@code bestRate}: its end is later than the returned time, and the rate computed with
     * that span (the same double arithmetic as {@link Outcome#insertsPerSecond}, monotone in
     * the span) is already at most {@code bestRate} (below it, if {@code strict}). {@link Time#NEVER} if no such time is
     * representable.
     */
    static long lossDeadline(Outcome o, double bestRate, boolean strict) {
        double spanPs = o.inserters * (double) o.perProcess / bestRate * Time.S;
        if (!(spanPs < Long.MAX_VALUE / 4.0)) {
            return Time.NEVER;
        }
        long span = (long) Math.ceil(spanPs) + (strict ? 2 : 1);
        double rate = o.rateAtSpan(span);
        return (strict ? rate < bestRate : rate <= bestRate) ? o.start + span : Time.NEVER;
    }

    private static List<String> schemePolicies(Profile profile) {
        List<String> names = new ArrayList<>();
        for (String n : PolicyRegistry.standard().names()) {
            if (PolicyRegistry.standard().create(n, profile) instanceof DhtSchemeProvider) {
                names.add(n);
            }
        }
        return names;
    }

    /** Builds the run on {@code job} and starts its processes; the caller runs the simulation. */
    Outcome launch(Job job, Map<String, Object> params, DhtScheme scheme, long onloadCores) {
        Simulator sim = job.simulator();
        int processes = (int) (long) (Long) params.get(PROCESSES);
        int perNode = (int) (long) (Long) params.get(PER_NODE);
        double collisionRate = (Double) params.get(COLLISION_RATE);
        double comp = (Double) params.get(COMP_RATIO);
        long table = (Long) params.get(VOLUME);
        long heap = (Long) params.get(HEAP) == 0 ? table : (Long) params.get(HEAP);
        long perProcess = (long) StandardParameters.iterations(params);
        int elementBytes = (int) StandardParameters.size(params);
        int capacity = job.cluster().node(0).endpoint().datagramCapacity();
        if (elementBytes < 8 || elementBytes > capacity) {
            throw new IllegalArgumentException(StandardParameters.SIZE + ": " + elementBytes + " B per element; valid: 8 (one"
                    + " word) to " + capacity + " (one packet of this profile's transport.mtu)");
        }
        DhtContext dht = new DhtContext(sim, job.cluster(), job.cluster().profile(), scheme, processes, perNode, table,
                heap, Math.max(0, onloadCores), elementBytes);
        dht.attachFabric();
        scheme.setUp(dht);
        Outcome out = new Outcome(dht, perProcess, onloadCores);
        int inserters = 0;
        for (int r = 0; r < processes; r++) {
            if (scheme.inserts(r)) {
                inserters++;
            }
        }
        out.inserters = inserters;
        out.inserterRanks = new int[inserters];
        for (int r = 0, k = 0; r < processes; r++) {
            if (scheme.inserts(r)) {
                out.inserterRanks[k++] = r;
            }
        }
        dht.expect(inserters * perProcess);
        long start = sim.now();
        out.start = start;
        for (int r = 0; r < dht.ranks(); r++) {
            int rank = r;
            if (r >= processes || !scheme.inserts(r)) {
                new SimProcess(sim, "dht_rank" + r, ctx -> scheme.finish(ctx, rank)).start();
                continue;
            }
            new SimProcess(sim, "dht_rank" + r, ctx -> {
                RandomStream rnd = ctx.random();
                long[] recent = new long[RECENT];
                int seen = 0;
                long lastDuration = 0;
                int volumes = dht.ranks();
                for (long i = 0; i < perProcess; i++) {
                    long debt = dht.takeDebt(rank);
                    if (debt > 0) {
                        ctx.sleep(debt);
                    }
                    if (comp > 0 && lastDuration > 0) {
                        ctx.sleep(Math.round(lastDuration * comp / (1 - comp)));
                    }
                    long slot;
                    boolean collides = seen > 0 && rnd.nextBoolean(collisionRate);
                    if (collides) {
                        slot = recent[rnd.nextInt(Math.min(seen, RECENT))];
                    } else {
                        int t = rnd.nextInt(volumes - 1);
                        if (t >= rank) {
                            t++;
                        }
                        slot = (long) t << 24 | rnd.nextLong(table);
                        recent[seen % RECENT] = slot;
                        seen++;
                    }
                    int target = (int) (slot >>> 24);
                    long elem = DhtHash.element(target, slot & (DhtHash.MAX_TABLE - 1),
                            RandomStream.mix64((long) rank << 32 | i));
                    out.expectedCount[target]++;
                    out.expectedDigest[target] += RandomStream.mix64(elem);
                    out.started[rank] = i + 1;
                    long t0 = ctx.now();
                    long accesses = dht.fabric().issued(rank);
                    scheme.insert(ctx, rank, target, elem);
                    dht.recordInsert(collides, (int) (dht.fabric().issued(rank) - accesses));
                    lastDuration = ctx.now() - t0;
                }
                out.issuedEnd = Math.max(out.issuedEnd, ctx.now());
                if (++out.finishedInserters == out.inserters) {
                    scheme.allIssued();
                }
                scheme.finish(ctx, rank);
            }).start();
        }
        return out;
    }

    /** What a run reports; read once the simulation has ended. */
    static final class Outcome implements Workload.Run {
        final DhtContext dht;
        final long perProcess;
        final long onloadCores;
        boolean bestMode;
        final long[] expectedCount;
        final long[] expectedDigest;
        /** Inserts each process has begun (for the AM-Onload search's bound). */
        final long[] started;
        int[] inserterRanks = new int[0];
        int inserters;
        int finishedInserters;
        long start;
        long issuedEnd;

        Outcome(DhtContext dht, long perProcess, long onloadCores) {
            this.dht = dht;
            this.perProcess = perProcess;
            this.onloadCores = onloadCores;
            this.expectedCount = new long[dht.ranks()];
            this.expectedDigest = new long[dht.ranks()];
            this.started = new long[dht.ranks()];
        }

        long end() {
            return Math.max(issuedEnd, dht.lastAppliedAt());
        }

        double insertsPerSecond() {
            return rateAtSpan(end() - start);
        }

        double rateAtSpan(long span) {
            return span <= 0 ? 0 : inserters * perProcess / (span / (double) Time.S);
        }

        /** The most inserts any inserting process has not begun yet. */
        long mostUnstartedInserts() {
            long most = 0;
            for (int r : inserterRanks) {
                most = Math.max(most, perProcess - started[r]);
            }
            return most;
        }

        /** Every inserter has issued everything and every element is applied: the rate is final. */
        boolean finished() {
            return finishedInserters == inserters && dht.allApplied().isDone();
        }

        @Override
        public double bytesPerSecond() {
            return 0;
        }

        @Override
        public boolean verified() {
            if (!dht.allApplied().isDone()) {
                return false;
            }
            for (int r = 0; r < dht.ranks(); r++) {
                Volume.Content c = dht.volume(r).content();
                if (c.elements() != expectedCount[r] || c.digest() != expectedDigest[r] || c.misplaced() != 0) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public Map<String, Object> extraMetrics() {
            long collisions = 0;
            for (int r = 0; r < dht.ranks(); r++) {
                collisions += dht.volume(r).collisions();
            }
            long total = inserters * perProcess;
            Map<String, Object> m = new LinkedHashMap<>();
            m.put(INSERTS_PER_S, round(insertsPerSecond()));
            m.put(COLLISIONS_PCT, total == 0 ? null : round(100.0 * collisions / total));
            m.put(ACCESSES_PER_COLLIDING, dht.collidingInserts() == 0 ? null
                    : round(dht.collidingAccesses() / (double) dht.collidingInserts()));
            m.put(INSERT_TIME, round(Time.toMicros(end() - start)));
            m.put(ONLOAD_USED, bestMode ? onloadCores : null);
            return m;
        }

        private static double round(double x) {
            return Math.round(x * 1000.0) / 1000.0;
        }
    }
}
