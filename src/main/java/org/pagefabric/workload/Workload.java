package org.pagefabric.workload;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pagefabric.comm.Job;
import org.pagefabric.config.Profile;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * A microbenchmark or application kernel that runs on a {@link Job}. It declares itself once,
 * in its {@link WorkloadDescriptor} (parameters with types and defaults, ranks, segment,
 * capabilities required, metrics), and runs from a map of its parameters' values, so that
 * experiment grids, {@code --set} and {@code info} are driven by the declaration rather than by
 * code that knows each workload. It starts its ranks' processes; the runner runs the
 * simulation and collects the results.
 */
public interface Workload {
    /** What the workload declares about itself; every declaration below derives from it. */
    WorkloadDescriptor descriptor();

    /** The command-line name. */
    default String name() {
        return descriptor().name();
    }

    /** One line saying what is measured. */
    default String description() {
        return descriptor().description();
    }

    /** Ranks the workload needs. */
    default int ranks() {
        return descriptor().ranks();
    }

    /**
     * Ranks the workload needs for these (resolved) parameter values: {@link #ranks()} unless the
     * count depends on a parameter (an application that runs on 4 or 8 nodes, a process count,
     * the distributed hashtable's {@code processes / processes_per_node} nodes).
     */
    default int ranks(Map<String, Object> params) {
        return descriptor().ranks(descriptor().values(params));
    }

    /**
     * Nodes the ranks run on for these (resolved) parameter values: one rank per node unless the
     * workload puts several on a node (rank {@code i} runs on node {@code i % nodes}).
     */
    default int nodes(Map<String, Object> params) {
        return descriptor().nodes(descriptor().values(params));
    }

    /**
     * Whether the job connects every pair of ranks with RC queue pairs before the workload
     * starts. A workload that carries its own traffic (datagrams, as the distributed hashtable
     * does at thousands of nodes) says {@code false}, sparing n^2 queue pairs.
     */
    default boolean connectsRanks() {
        return descriptor().connectsRanks();
    }

    /**
     * The capabilities a registration policy must offer to run this workload with these
     * (resolved) parameters: a workload that puts needs {@link Capability#PUT}. The
     * {@link org.pagefabric.reg.PolicyRegistry} leaves out the policies that lack one before
     * anything is simulated.
     */
    default Set<Capability> requires(Map<String, Object> params) {
        return descriptor().requires(descriptor().values(params));
    }

    /** The parameters the workload takes, in the order they appear as columns. */
    default List<WorkloadParameter> parameters() {
        return descriptor().parameters();
    }

    /** Segment bytes each rank needs for these (resolved) parameter values. */
    default long segmentBytes(Map<String, Object> params) {
        return descriptor().segmentBytes(descriptor().values(params));
    }

    /** The metric the workload is judged by, e.g. {@code latency_us}. */
    default String mainMetric() {
        return descriptor().mainMetric();
    }

    /** Whether a larger main metric is better (bandwidth) or worse (latency). */
    default boolean higherIsBetter() {
        return descriptor().higherIsBetter();
    }

    /** The metric columns a point of this workload produces, units in the names. */
    default List<String> metrics() {
        return descriptor().metrics();
    }

    /**
     * Starts the workload's processes on {@code job}.
     *
     * @param params    resolved parameter values (see {@link #resolve}): every declared name
     *                  present, with its stored type
     * @param latencies where each timed operation's latency goes (picoseconds)
     * @return what the runner reads once the simulation ends
     */
    Run start(Job job, Map<String, Object> params, LatencyHistogram latencies);

    /**
     * A parameter of this point (resolved values) that the workload leaves to a search by the
     * experiment layer, which runs every candidate and keeps the best; {@code null}, as by
     * default, when the point is one run.
     *
     * @throws IllegalArgumentException if the values leave the search no candidate
     */
    default SearchedParameter search(Map<String, Object> params) {
        return null;
    }

    /** The declared parameter called {@code name}, or {@code null}. */
    default WorkloadParameter parameter(String name) {
        return descriptor().parameter(name);
    }

    /** Every declared parameter name, in declaration order. */
    default List<String> parameterNames() {
        return descriptor().parameterNames();
    }

    /**
     * The profile a point with these (resolved) parameter values runs on: {@code profile}
     * itself unless a parameter of the workload stands for a setting of the layers below it (a
     * library's switch the application chooses, as fork-reuse's {@code dontfork} chooses
     * libibverbs' fork protection). The policy and the job are built on what this returns.
     *
     * @param params the point's resolved parameters
     * @param profile the profile the point was given
     */
    default Profile profile(Map<String, Object> params, Profile profile) {
        return profile;
    }

    /**
     * Checks values whose valid range depends on the hardware a point runs on (what one packet
     * carries, a node's cores), so that a sweep refuses them before its first point runs rather
     * than failing half way; nothing by default.
     *
     * @param params the point's resolved parameters
     * @param profile the point's profile
     * @throws IllegalArgumentException naming the parameter and its valid values
     */
    default void check(Map<String, Object> params, Profile profile) {
    }

    /**
     * Checks given values against the declarations, fills in defaults and runs the checks across
     * parameters the descriptor declares.
     *
     * @param given values by parameter name, as written (numbers, booleans, strings)
     * @return every declared parameter, in declaration order, with its stored value
     * @throws IllegalArgumentException naming the parameter and what would be valid, for an
     *                                  unknown name or a bad value
     */
    default Map<String, Object> resolve(Map<String, ?> given) {
        return descriptor().resolve(given);
    }

    /**
     * One value of parameter {@code p} as a spec's grid writes it, in its stored form; a keyword
     * the descriptor accepts for a number (dht-insert's {@code onload_cores: best}) maps here.
     *
     * @throws IllegalArgumentException saying what would be valid
     */
    default Object coerce(WorkloadParameter p, Object value) {
        return descriptor().coerce(p, value);
    }

    /** What a started workload reports once the simulation has ended. */
    interface Run {
        /** Bytes moved per second over the timed part, or 0 if not measured. */
        double bytesPerSecond();

        /** {@code amount} per second of virtual time over {@code ps} picoseconds, or 0 if no time passed. */
        static double perSecond(double amount, long ps) {
            return ps <= 0 ? 0 : amount / (ps / (double) Time.S);
        }

        /** Whether every timed operation succeeded and the data arrived intact. */
        boolean verified();

        /**
         * What failed the end-to-end check, in a few words, for the row's {@code reason} when
         * {@link #verified()} is false ("3 of 20 transfers completed with LOCAL_PROTECTION_ERROR");
         * {@code null} to let the row say only that it did not verify.
         */
        default String failure() {
            return null;
        }

        /**
         * The workload's own metrics beyond {@link PointRun#METRICS} (those its
         * {@link Workload#metrics()} adds), by column name; none by default.
         */
        default Map<String, Object> extraMetrics() {
            return Map.of();
        }

        /**
         * A run that reports no bandwidth (a latency or an application workload), judged by
         * {@code verified}; the suppliers are read after the simulation, when the row is written.
         */
        static Run of(java.util.function.BooleanSupplier verified) {
            return of(verified, Map::of);
        }

        /** As {@link #of(java.util.function.BooleanSupplier)}, with the workload's own metrics. */
        static Run of(java.util.function.BooleanSupplier verified,
                           java.util.function.Supplier<Map<String, Object>> extraMetrics) {
            return of(verified, () -> null, extraMetrics);
        }

        /** As {@link #of(java.util.function.BooleanSupplier)}, with what failed and the workload's own metrics. */
        static Run of(java.util.function.BooleanSupplier verified, java.util.function.Supplier<String> failure,
                           java.util.function.Supplier<Map<String, Object>> extraMetrics) {
            return of(() -> 0, verified, failure, extraMetrics);
        }

        /**
         * As {@link #of(java.util.function.BooleanSupplier, java.util.function.Supplier, java.util.function.Supplier)},
         * for a run that reports its bandwidth, read after the simulation like the others.
         */
        static Run of(java.util.function.DoubleSupplier bytesPerSecond, java.util.function.BooleanSupplier verified,
                      java.util.function.Supplier<String> failure,
                      java.util.function.Supplier<Map<String, Object>> extraMetrics) {
            return new Run() {
                @Override
                public double bytesPerSecond() {
                    return bytesPerSecond.getAsDouble();
                }

                @Override
                public boolean verified() {
                    return verified.getAsBoolean();
                }

                @Override
                public String failure() {
                    return failure.get();
                }

                @Override
                public Map<String, Object> extraMetrics() {
                    return extraMetrics.get();
                }
            };
        }
    }
}
