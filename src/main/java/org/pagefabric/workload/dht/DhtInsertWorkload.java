package org.pagefabric.workload.dht;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.config.Profile;
import org.pagefabric.hw.node.CostsFromProfile;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;
import org.pagefabric.workload.AbstractWorkload;
import org.pagefabric.workload.BoundedRun;
import org.pagefabric.workload.Params;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.SchemeRegistry;
import org.pagefabric.workload.SearchedParameter;
import org.pagefabric.workload.StandardParameters;
import org.pagefabric.workload.WorkloadDescriptor;
import org.pagefabric.workload.WorkloadParameter;

/**
 * The distributed hashtable of 002 §4.1 and §5.2.1: every process owns a volume (a table of
 * {@code volume_elements} cells and an overflow heap) and inserts {@code iterations}
 * elements of {@code size_B} bytes into the volumes of other processes, {@code processes_per_node} processes per node.
 * A share {@code collision_rate} of the inserts goes to a table cell the process filled before
 * (a hash collision, handled in the overflow heap); a share {@code comp_ratio} of each process's
 * time is local computation. How an element reaches its volume is the {@code scheme}
 * ({@link DhtScheme}, listed by {@link DhtSchemeProvider}). After the run every volume is scanned: every inserted element must be
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
        METRICS = PointRun.metricsAfterVerified(List.of(INSERTS_PER_S, COLLISIONS_PCT, ACCESSES_PER_COLLIDING,
                INSERT_TIME, ONLOAD_USED));
    }

    /** The workload with its declared parameters. */
    public DhtInsertWorkload() {
        super(WorkloadDescriptor.of(NAME, "distributed hashtable inserts (002 §4.1, §5.2.1): inserts/s over processes,"
                + " collisions and computation, every element verified in its volume").ranks(DhtInsertWorkload::nodes)
                .ownTraffic().parameters(
                StandardParameters.size(8), StandardParameters.iterations(), StandardParameters.scheme(NAME, "rma"),
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
                        + " 1 to processes_per_node - 1 and keep the fastest (002 §5.2.1)", 0, 1023))
                // a grid's onload_cores: best is stored as 0, the search over every C
                .keyword(ONLOAD, "best", 0L)
                .higherIsBetter(INSERTS_PER_S).metrics(METRICS)
                // the volumes live in the workload's sparse model; each node registers one page of segment
                .segment(Kernel.PAGE_SIZE).build());
    }

    /** Nodes of {@code processes_per_node} processes each, at least two; one process alone gets one per node. */
    private static int nodes(Params params) {
        long processes = params.longValue(PROCESSES);
        long perNode = processes == 1 ? 1 : params.longValue(PER_NODE);
        return (int) Math.max(2, Math.ceilDiv(Math.max(processes, 2), perNode));
    }

    /**
     * {@code onload_cores: best} (stored as 0) under a scheme that dedicates handler cores
     * (AM-Onload): 002 §5.2.1 runs every C from 1 to {@code processes_per_node - 1} and keeps
     * the one with the highest insert rate, the smallest C among equals. The experiment layer
     * runs that search; this workload runs one C. Its runs bound their end while they run
     * ({@link Outcome#bestReachable}), so the search can stop a C that can no longer win.
     */
    @Override
    protected SearchedParameter search(Params params) {
        if (params.longValue(ONLOAD) != 0 || !schemeOf(params).usesOnloadCores()) {
            return null;
        }
        int maxCores = maxOnloadCores(params, 0);
        List<Object> candidates = new ArrayList<>();
        for (long c = 1; c <= maxCores; c++) {
            candidates.add(c);
        }
        return new SearchedParameter(ONLOAD, candidates, INSERTS_PER_S, true, ONLOAD_USED);
    }

    /** The element size against the profile's packet, the computation share and the handler cores. */
    @Override
    protected void check(Params params, Profile profile) {
        checkElementBytes(params, CostsFromProfile.mtuBytes(profile));
        checkComputation(params);
        if (schemeOf(params).usesOnloadCores()) {
            maxOnloadCores(params, params.longValue(ONLOAD));
        }
    }

    /**
     * The bytes of one element: at least one word, at most what one packet carries.
     *
     * @throws IllegalArgumentException otherwise
     */
    private static int checkElementBytes(Params params, int capacity) {
        long elementBytes = StandardParameters.size(params);
        if (elementBytes < 8 || elementBytes > capacity) {
            throw new IllegalArgumentException(StandardParameters.SIZE + ": " + elementBytes + " B per element; valid: 8 (one"
                    + " word) to " + capacity + " (one packet of this profile's transport.mtu)");
        }
        return (int) elementBytes;
    }

    private static void checkComputation(Params params) {
        double comp = params.doubleValue(COMP_RATIO);
        if (comp >= 1) {
            throw new IllegalArgumentException(COMP_RATIO + ": " + comp + " leaves no time to insert; valid: 0 to below 1");
        }
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        DhtScheme scheme = newScheme(job, params);
        checkComputation(params);
        long onload = params.longValue(ONLOAD);
        long onloadUsed = -1;
        if (scheme.usesOnloadCores()) {
            maxOnloadCores(params, onload);
            if (onload == 0) {
                throw new IllegalArgumentException(ONLOAD + ": best (0) is a search over every C, which an experiment"
                        + " runs (pagefabric run or reproduce); a single run takes one C");
            }
            onloadUsed = onload;
        }
        return launch(job, params, scheme, onloadUsed);
    }

    /**
     * The most handler cores a node of these processes can dedicate, {@code processes_per_node - 1}.
     *
     * @throws IllegalArgumentException if that is none, or fewer than {@code asked}
     */
    private static int maxOnloadCores(Params params, long asked) {
        int processes = params.intValue(PROCESSES);
        int perNode = params.intValue(PER_NODE);
        int maxCores = processes == 1 ? 0 : perNode - 1;
        if (maxCores < 1 || asked > maxCores) {
            throw new IllegalArgumentException(ONLOAD + ": " + asked + " handler cores leave no inserting core on"
                    + " nodes of " + perNode + " processes; valid: best (0) or 1 to " + Math.max(1, maxCores)
                    + " with processes_per_node >= 2");
        }
        return maxCores;
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

    /** The scheme {@code params} name, as a fresh instance (to ask what it does, not to run it). */
    private static DhtScheme schemeOf(Params params) {
        return SchemeRegistry.standard().descriptor(params.choice(StandardParameters.SCHEME), NAME)
                .create(DhtScheme.class);
    }

    /**
     * A fresh instance of the run's scheme, checked against the job's registration policy.
     *
     * @throws PolicyRefusal if the policy does not give the scheme the registration it needs
     */
    static DhtScheme newScheme(Job job, Params params) {
        return SchemeRegistry.standard().forRun(params.choice(StandardParameters.SCHEME), NAME,
                job.policy().name()).create(DhtScheme.class);
    }

    /** Builds the run on {@code job} and starts its processes; the caller runs the simulation. */
    Outcome launch(Job job, Params params, DhtScheme scheme, long onloadCores) {
        Simulator sim = job.simulator();
        int processes = params.intValue(PROCESSES);
        int perNode = params.intValue(PER_NODE);
        double collisionRate = params.doubleValue(COLLISION_RATE);
        double comp = params.doubleValue(COMP_RATIO);
        long table = params.longValue(VOLUME);
        long heap = params.longValue(HEAP) == 0 ? table : params.longValue(HEAP);
        long perProcess = (long) StandardParameters.iterations(params);
        int elementBytes = checkElementBytes(params, job.cluster().datagramCapacity());
        DhtContext dht = new DhtContext(job, scheme, processes, perNode, table, heap, Math.max(0, onloadCores),
                elementBytes);
        dht.attachFabric();
        scheme.setUp(dht);
        Outcome out = new Outcome(dht, perProcess);
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
            Inserter inserter = new Inserter(dht, scheme, out, rank, perProcess, collisionRate, comp, table);
            new SimProcess(sim, "dht_rank" + r, inserter::run).start();
        }
        return out;
    }

    /**
     * One inserting process's body. The work of an insert is a method of its own rather than the
     * body of the loop: the 512 to 1024 bodies of a run each enter the loop once and suspend
     * inside it, so a loop body would run interpreted in every process until on-stack
     * replacement reached that process (about a thousand iterations each, again after every
     * deoptimization), while a method is compiled once for all of them. The loop over inserts is
     * cut into batches for the same reason: the body's own frame stays interpreted and runs only
     * one step per batch.
     */
    private static final class Inserter {
        private static final int BATCH = 64;
        private final DhtContext dht;
        private final DhtScheme scheme;
        private final Outcome out;
        private final int rank;
        private final long perProcess;
        private final double collisionRate;
        private final double comp;
        private final long table;
        private final int volumes;
        private final long[] recent = new long[RECENT];
        private int seen;
        private long lastDuration;

        Inserter(DhtContext dht, DhtScheme scheme, Outcome out, int rank, long perProcess, double collisionRate,
                 double comp, long table) {
            this.dht = dht;
            this.scheme = scheme;
            this.out = out;
            this.rank = rank;
            this.perProcess = perProcess;
            this.collisionRate = collisionRate;
            this.comp = comp;
            this.table = table;
            this.volumes = dht.ranks();
        }

        void run(ProcessContext ctx) {
            RandomStream rnd = ctx.random();
            for (long i = 0; i < perProcess; i += BATCH) {
                insertBatch(ctx, rnd, i, Math.min(perProcess, i + BATCH));
            }
            out.issuedEnd = Math.max(out.issuedEnd, ctx.now());
            if (++out.finishedInserters == out.inserters) {
                scheme.allIssued();
            }
            scheme.finish(ctx, rank);
        }

        /** Inserts {@code from} to {@code to - 1}: a loop that is compiled from its calls, not only by on-stack replacement. */
        private void insertBatch(ProcessContext ctx, RandomStream rnd, long from, long to) {
            for (long i = from; i < to; i++) {
                insert(ctx, rnd, i);
            }
        }

        /** Insert {@code i}: the handler time owed, the computation share, the element and its scheme's insert. */
        private void insert(ProcessContext ctx, RandomStream rnd, long i) {
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
    }

    /**
     * What a run reports; read once the simulation has ended, or, for the search over
     * AM-Onload's C, while it runs: its rate is inserts / span, and {@link #leastEnd} bounds the
     * span's end from below.
     */
    static final class Outcome implements BoundedRun {
        final DhtContext dht;
        final long perProcess;
        final long[] expectedCount;
        final long[] expectedDigest;
        /** Inserts each process has begun (for the AM-Onload search's bound). */
        final long[] started;
        int[] inserterRanks = new int[0];
        int inserters;
        int finishedInserters;
        long start;
        long issuedEnd;

        Outcome(DhtContext dht, long perProcess) {
            this.dht = dht;
            this.perProcess = perProcess;
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

        /**
         * The earliest the run can end, from what the clock shows now: the time already
         * simulated; that time plus the most inserts any process has not begun times the least
         * time an insert costs a process ({@link DhtScheme#minInsertPs}); and the scheme's own
         * bound on when its handlers can have applied what is still unapplied
         * ({@link DhtScheme#appliedNoEarlierThan}).
         */
        long leastEnd() {
            DhtScheme scheme = dht.scheme();
            long now = dht.simulator().now();
            long least = now;
            long unstarted = mostUnstartedInserts();
            long perInsert = scheme.minInsertPs(dht);
            if (perInsert > 0 && unstarted > 0 && unstarted <= (Long.MAX_VALUE / 4 - now) / perInsert) {
                least = Math.max(least, now + unstarted * perInsert);
            }
            return Math.max(least, scheme.appliedNoEarlierThan(dht.unapplied()));
        }

        @Override
        public double searchValue() {
            return insertsPerSecond();
        }

        @Override
        public boolean settled() {
            return finished();
        }

        @Override
        public double bestReachable() {
            return rateAtSpan(leastEnd() - start);
        }

        @Override
        public long hopelessAfter(double value, boolean winsTies) {
            return lossDeadline(this, value, winsTies);
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
            m.put(ONLOAD_USED, null); // the search over C reports its choice here
            return m;
        }

        private static double round(double x) {
            return Math.round(x * 1000.0) / 1000.0;
        }
    }
}
