package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.Energy;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Messages;
import org.pagefabric.config.Profile;
import org.pagefabric.hw.os.OsException;
import org.pagefabric.reg.Metric;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.sim.SimulationException;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimLock;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.LatencyHistogram;
import org.pagefabric.sim.stat.Statistic;

/**
 * One measurement: a workload at one set of parameter values under one policy and profile, in a
 * simulation of its own (so points are independent and can run on any thread), reported as
 * one tidy row: every parameter and every metric a column, units in the metric names.
 */
public final class PointRun {
    private PointRun() {
    }

    /** The metric columns every point produces, in row order, units in the names. */
    public static final List<String> METRICS = List.of("latency_us", "latency_p50_us", "latency_min_us",
            "latency_max_us", "bandwidth_MBps", "pinned_MiB", "hit_rate_pct", "setup_us", "registration_cpu_us", "packets", "retransmissions", "timeouts",
            "verified", "events", "simulated_us", "nic_energy_J", "router_energy_J", "nic_power_W", "router_power_W");

    /**
     * The common metrics with a workload's own columns right before {@code verified}: figures of
     * the run, which a row that does not verify leaves blank.
     */
    public static List<String> metricsBeforeVerified(List<String> own) {
        return metricsAt(METRICS.indexOf("verified"), own);
    }

    /**
     * The common metrics with a workload's own columns right after {@code verified}: counts that
     * explain a verdict (corrupted transfers, faults, refused moves).
     */
    public static List<String> metricsAfterVerified(List<String> own) {
        return metricsAt(METRICS.indexOf("verified") + 1, own);
    }

    /** The common metrics, then a workload's own columns. */
    public static List<String> metricsThen(List<String> own) {
        return metricsAt(METRICS.size(), own);
    }

    private static List<String> metricsAt(int at, List<String> own) {
        List<String> m = new ArrayList<>(METRICS);
        m.addAll(at, own);
        return List.copyOf(m);
    }

    /** The column saying what failed the end-to-end check, present only in a row with {@code verified=false}. */
    public static final String REASON = "reason";

    /** The transport's count of connections that failed at a retry limit (one per sender). */
    private static final String RETRY_LIMIT_FAILURES = ".retryLimitFailures";
    /** The reason of a row whose transport gave up on a connection. */
    private static final String GAVE_UP = "the transport gave up: a connection exceeded its retry limit";
    private static final String LOST_DATAGRAMS = ".lostDatagrams";
    private static final String CORRUPT_DATAGRAMS = ".datagramsCorrupt";

    /** The identity columns that come before the workload's parameters. */
    public static final List<String> IDENTITY = List.of("workload", "policy", "profile", "seed");

    /**
     * Runs the point at one message size and iteration count (what {@code pagefabric run} sweeps)
     * and returns its row.
     *
     * @param profile    the hardware profile
     * @param policyName the registration policy
     * @param workload   the workload; it must declare {@code size_B} and {@code iterations}
     * @param size       message size in bytes
     * @param iterations timed iterations
     * @param seed       master seed
     * @throws IllegalArgumentException if the size or iteration count is out of range
     */
    public static Map<String, Object> run(Profile profile, String policyName, Workload workload, long size,
                                          int iterations, long seed) {
        Map<String, Object> params = new LinkedHashMap<>();
        params.put(StandardParameters.SIZE, size);
        params.put(StandardParameters.ITERATIONS, iterations);
        return run(profile, policyName, workload, params, seed);
    }

    /**
     * Runs the point and returns its row: {@link #IDENTITY} columns, then every declared
     * workload parameter in declaration order, then {@link Workload#metrics()}.
     *
     * @param profile    the hardware profile
     * @param policyName the registration policy
     * @param workload   the workload
     * @param params     parameter values as written; missing ones take their defaults
     * @param seed       master seed
     * @throws IllegalArgumentException if a parameter is unknown or its value invalid
     */
    public static Map<String, Object> run(Profile profile, String policyName, Workload workload,
                                          Map<String, ?> params, long seed) {
        return start(profile, policyName, workload, params, seed).finish();
    }

    /**
     * Builds the point and starts its workload without running the simulation: for a caller
     * that runs it in slices (a search that may stop a hopeless candidate), or to its end with
     * {@link Started#finish()}. Parameters as {@link #run(Profile, String, Workload, Map, long)}.
     */
    public static Started start(Profile given, String policyName, Workload workload, Map<String, ?> params,
                                long seed) {
        Map<String, Object> values = workload.resolve(params);
        Profile profile = workload.profile(values, given);
        String refusal = PolicyRegistry.standard().descriptor(policyName).refusal(workload.requires(values), profile);
        if (refusal != null) {
            throw new PolicyRefusal(refusal + " (workload " + workload.name() + ")");
        }
        Simulator sim = new Simulator(seed);
        RegistrationPolicy policy = PolicyRegistry.standard().create(policyName, profile);
        Job job;
        try {
            job = new Job(sim, profile, workload.nodes(values), workload.ranks(values), workload.segmentBytes(values),
                    policy, workload.connectsRanks());
        } catch (OsException e) {
            // A limit the policy's set-up runs into (RLIMIT_MEMLOCK, vm.max_map_count) fails the run, as
            // the failed system call ends a real job before it communicates.
            return new Started(profile, workload, values, seed, sim, policyName, systemCallFailed(e, "set-up"));
        }
        LatencyHistogram lat = sim.statistics().latency("workload.latency", "latency of each timed operation");
        Workload.Run run = workload.start(job, values, lat);
        return new Started(profile, workload, values, seed, job, lat, run);
    }

    /** The reason of a row whose run a failed system call ended (a limit it ran into). */
    private static String systemCallFailed(OsException e, String where) {
        return "a system call failed in " + where + ": " + e.getMessage();
    }

    /** The {@link OsException} that ended a process, if that is what {@code e} reports, or null. */
    private static OsException systemCallFailure(SimulationException e) {
        for (Throwable t = e.getCause(); t != null; t = t.getCause()) {
            if (t instanceof OsException os) {
                return os;
            }
        }
        return null;
    }

    /**
     * A point whose workload has started and whose simulation has not run yet (or has run part
     * of the way).
     */
    public static final class Started {
        private final Profile profile;
        private final Workload workload;
        private final Map<String, Object> values;
        private final long seed;
        private final Job job;
        private final LatencyHistogram lat;
        private final Workload.Run run;
        private final long startedAt;

        /** Set when the job could not be set up: the row's reason; then there is no job. */
        private final String setUpFailure;
        private final Simulator sim;
        private final String policyName;

        private Started(Profile profile, Workload workload, Map<String, Object> values, long seed, Job job,
                        LatencyHistogram lat, Workload.Run run) {
            this.profile = profile;
            this.workload = workload;
            this.values = values;
            this.seed = seed;
            this.job = job;
            this.lat = lat;
            this.run = run;
            this.sim = job.simulator();
            this.policyName = job.policy().name();
            this.setUpFailure = null;
            this.startedAt = sim.now();
        }

        private Started(Profile profile, Workload workload, Map<String, Object> values, long seed, Simulator sim,
                        String policyName, String setUpFailure) {
            this.profile = profile;
            this.workload = workload;
            this.values = values;
            this.seed = seed;
            this.job = null;
            this.lat = null;
            this.sim = sim;
            this.policyName = policyName;
            this.setUpFailure = setUpFailure;
            this.run = new Workload.Run() {
                @Override
                public double bytesPerSecond() {
                    return 0;
                }

                @Override
                public boolean verified() {
                    return false;
                }

                @Override
                public String failure() {
                    return setUpFailure;
                }
            };
            this.startedAt = sim.now();
        }

        /** The point's simulation. */
        public Simulator simulator() {
            return sim;
        }

        /** What the workload reports. */
        public Workload.Run run() {
            return run;
        }

        /** The simulated time at which the workload started. */
        public long startedAt() {
            return startedAt;
        }

        /**
         * Why the run stopped with processes still waiting for what the network will never
         * deliver, or {@code null} when it did not: the reliable transport gave up on a connection
         * (a retry limit), or unreliable datagrams, which nothing resends, were lost or corrupted
         * on the way (a remote atomic's lost reply leaves its process waiting for ever, as it
         * would on a real unreliable datagram service without a time-out); or threads of the program
         * wait on each other through a {@link SimLock} (the program's own deadlock, reported with
         * what each waiter waits on). Any other wait with no
         * event pending is a deadlock.
         */
        public String stuckReason() {
            if (setUpFailure != null) {
                return setUpFailure;
            }
            if (sim.pendingEvents() != 0 || SimProcess.waiting(sim).isEmpty()) {
                return null;
            }
            if (sum(sim, RETRY_LIMIT_FAILURES) > 0) {
                return GAVE_UP;
            }
            long garbled = sum(sim, Messages.GARBLED);
            if (garbled > 0) {
                return garbled + " active message" + (garbled == 1 ? "" : "s") + " named no handler: the sender's"
                        + " message buffer held other bytes than it wrote, as when its registration kept a page the"
                        + " process no longer maps (fork on a kernel without the early copy), and the requester waits";
            }
            if (sum(sim, SimLock.WAITS) > 0) {
                // threads of the program wait on each other through a lock: the program's own hang
                return SimProcess.waitReport(sim);
            }
            long lost = sum(sim, LOST_DATAGRAMS) + sum(sim, CORRUPT_DATAGRAMS);
            if (lost > 0) {
                int waiting = SimProcess.waiting(sim).size();
                return lost + " unreliable datagram" + (lost == 1 ? " was" : "s were")
                        + " lost or corrupted on the way and " + waiting + (waiting == 1 ? " process still waits" : " processes still wait")
                        + " for what they carried: nothing resends an unreliable datagram";
            }
            return null;
        }

        /** Ends the point without a row: closes its processes (a search's stopped candidate). */
        public void abandon() {
            SimProcess.closeAll(sim);
        }

        /**
         * Runs the rest of the simulation and returns the row. When the reliable transport gave up
         * on a connection (a retry limit), processes still waiting for what it will never deliver
         * are ended and the row is unverified: the run failed with the transport's error, as a
         * workload that checks every completion reports it, not with a deadlock.
         *
         * @throws org.pagefabric.sim.SimulationException if processes wait with no event pending
         */
        public Map<String, Object> finish() {
            if (setUpFailure != null) {
                return failedSetUpRow(profile, workload, values, seed, policyName, setUpFailure);
            }
            String stuck;
            try {
                sim.run();
                stuck = stuckReason();
            } catch (SimulationException e) {
                OsException os = systemCallFailure(e);
                if (os == null) {
                    throw e;
                }
                // A registration refused by a limit fails the call as it would the real one; the
                // application stops with that error.
                stuck = systemCallFailed(os, "the run at " + Time.format(sim.now()));
            }
            if (stuck != null) {
                SimProcess.closeAll(sim);
            } else {
                SimProcess.checkNoDeadlock(sim);
            }
            return row(profile, workload, values, seed, job, lat, run, stuck);
        }
    }

    /** The row of a point whose job failed in set-up: nothing ran, so every figure is blank. */
    private static Map<String, Object> failedSetUpRow(Profile profile, Workload workload, Map<String, Object> values,
                                                      long seed, String policyName, String failure) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("workload", workload.name());
        row.put("policy", policyName);
        row.put("profile", profile.name());
        row.put("seed", seed);
        row.putAll(values);
        for (String m : METRICS) {
            row.put(m, null);
        }
        for (String m : workload.metrics()) {
            row.putIfAbsent(m, null);
        }
        row.put("verified", false);
        row.put(REASON, failure);
        return row;
    }

    private static Map<String, Object> row(Profile profile, Workload workload, Map<String, Object> values, long seed,
                                           Job job, LatencyHistogram lat, Workload.Run run, String stuck) {
        Simulator sim = job.simulator();
        RegistrationPolicy policy = job.policy();
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("workload", workload.name());
        row.put("policy", policy.name());
        row.put("profile", profile.name());
        row.put("seed", seed);
        row.putAll(values);
        row.put("latency_us", round(Time.toMicros(Math.round(lat.mean()))));
        row.put("latency_p50_us", round(Time.toMicros(lat.percentile(50))));
        row.put("latency_min_us", round(Time.toMicros(lat.min())));
        row.put("latency_max_us", round(Time.toMicros(lat.max())));
        row.put("bandwidth_MBps", round(run.bytesPerSecond() / 1e6));
        row.put("pinned_MiB", round(job.pinnedBytes() / (double) (1 << 20)));
        row.put("hit_rate_pct", hitRate(policy));
        row.put("setup_us", round(Time.toMicros(job.setUpPs())));
        row.put("registration_cpu_us", round(Time.toMicros(job.registrationPs())));
        row.put("packets", sum(sim, ".dataPackets"));
        row.put("retransmissions", sum(sim, ".retransmittedPackets"));
        row.put("timeouts", sum(sim, ".timeouts"));
        boolean verified = stuck == null && run.verified();
        row.put("verified", verified);
        row.putAll(run.extraMetrics());
        row.put("events", sim.eventsExecuted());
        row.put("simulated_us", round(Time.toMicros(sim.now())));
        Energy energy = job.networkEnergy(profile, sim.now());
        row.put("nic_energy_J", significant(energy.nicJ()));
        row.put("router_energy_J", significant(energy.routerJ()));
        row.put("nic_power_W", significant(energy.nicPowerW()));
        row.put("router_power_W", significant(energy.routerPowerW()));
        if (!verified) {
            String failure = stuck != null ? stuck : run.failure();
            // A run that finished with failed completions the workload does not explain may still owe them to the transport.
            if (failure == null && sum(sim, RETRY_LIMIT_FAILURES) > 0) {
                failure = GAVE_UP;
            }
            blankFigures(row, workload, failure);
        }
        return row;
    }

    /**
     * Empties every measured quantity of a row that failed verification (a time, rate, energy or
     * footprint would describe a run that did not do its job) and says why it failed. Counts of
     * what happened (packets, events, corrupted operations) stay: they explain the failure.
     */
    private static void blankFigures(Map<String, Object> row, Workload workload, String failure) {
        for (String m : workload.metrics()) {
            if (row.get(m) instanceof Double || row.get(m) instanceof Float) {
                row.put(m, null);
            }
        }
        row.put(REASON, failure != null ? failure : "the end-to-end data check failed");
    }

    /**
     * The share of operations the policy served without registration work, in percent, from the
     * {@link Metric#HITS} and {@link Metric#MISSES} it publishes (Firehose's one-sided hit rate,
     * 004 §4.4); {@code null} for a policy that counts neither.
     */
    private static Double hitRate(RegistrationPolicy policy) {
        long hits = policy.count(Metric.HITS);
        long misses = policy.count(Metric.MISSES);
        if (hits == RegistrationPolicy.NOT_COUNTED || misses == RegistrationPolicy.NOT_COUNTED) {
            return null;
        }
        long all = hits + misses;
        return all == 0 ? null : round(100.0 * hits / all);
    }

    private static long sum(Simulator sim, String suffix) {
        long n = 0;
        for (Statistic s : sim.statistics().all()) {
            if (s instanceof Counter c && s.name().endsWith(suffix)) {
                n += c.value();
            }
        }
        return n;
    }

    /** Six significant digits: energies of short runs are micro- to millijoules. */
    private static double significant(double x) {
        return x == 0 ? 0 : new java.math.BigDecimal(x).round(new java.math.MathContext(6)).doubleValue();
    }

    private static double round(double x) {
        return Math.round(x * 1000.0) / 1000.0;
    }
}
