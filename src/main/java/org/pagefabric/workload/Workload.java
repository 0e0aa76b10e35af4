package org.pagefabric.workload;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pagefabric.comm.Job;
import org.pagefabric.config.Profile;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * A microbenchmark or application kernel that runs on a {@link Job}. It declares its parameters
 * ({@link #parameters()}: message size, iterations, ...) and runs from a map of their values, so
 * that experiment grids, {@code --set} and {@code info} are driven by the declarations rather
 * than by code that knows each workload. It starts its ranks' processes; the runner runs the
 * simulation and collects the results.
 */
public interface Workload {
    /** The command-line name. */
    String name();

    /** One line saying what is measured. */
    String description();

    /** Ranks the workload needs. */
    int ranks();

    /**
     * Ranks the workload needs for these (resolved) parameter values: {@link #ranks()} unless the
     * count depends on a parameter (an application that runs on 4 or 8 nodes, a process count,
     * the distributed hashtable's {@code processes / processes_per_node} nodes).
     */
    default int ranks(Map<String, Object> params) {
        return ranks();
    }

    /**
     * Nodes the ranks run on for these (resolved) parameter values: one rank per node unless the
     * workload puts several on a node (rank {@code i} runs on node {@code i % nodes}).
     */
    default int nodes(Map<String, Object> params) {
        return ranks(params);
    }

    /**
     * Whether the job connects every pair of ranks with RC queue pairs before the workload
     * starts. A workload that carries its own traffic (datagrams, as the distributed hashtable
     * does at thousands of nodes) says {@code false}, sparing n^2 queue pairs.
     */
    default boolean connectsRanks() {
        return true;
    }

    /**
     * The capabilities a registration policy must offer to run this workload with these
     * (resolved) parameters: a workload that puts needs {@link Capability#PUT}. The
     * {@link org.pagefabric.reg.PolicyRegistry} leaves out the policies that lack one before
     * anything is simulated.
     */
    default Set<Capability> requires(Map<String, Object> params) {
        return Set.of();
    }

    /** The parameters the workload takes, in the order they appear as columns. */
    List<WorkloadParameter> parameters();

    /** Segment bytes each rank needs for these (resolved) parameter values. */
    long segmentBytes(Map<String, Object> params);

    /** The metric the workload is judged by, e.g. {@code latency_us}. */
    String mainMetric();

    /** Whether a larger main metric is better (bandwidth) or worse (latency). */
    boolean higherIsBetter();

    /** The metric columns a point of this workload produces, units in the names. */
    default List<String> metrics() {
        return PointRun.METRICS;
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
        for (WorkloadParameter p : parameters()) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        return null;
    }

    /** Every declared parameter name, in declaration order. */
    default List<String> parameterNames() {
        List<String> names = new ArrayList<>();
        parameters().forEach(p -> names.add(p.name()));
        return names;
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
     * Checks given values against the declarations and fills in defaults.
     *
     * @param given values by parameter name, as written (numbers, booleans, strings)
     * @return every declared parameter, in declaration order, with its stored value
     * @throws IllegalArgumentException naming the parameter and what would be valid, for an
     *                                  unknown name or a bad value
     */
    default Map<String, Object> resolve(Map<String, ?> given) {
        for (String key : given.keySet()) {
            if (parameter(key) == null) {
                throw new IllegalArgumentException("workload '" + name() + "' has no parameter '" + key
                        + "'; its parameters: " + String.join(", ", parameterNames()));
            }
        }
        Map<String, Object> out = new LinkedHashMap<>();
        for (WorkloadParameter p : parameters()) {
            Object v = given.containsKey(p.name()) ? given.get(p.name()) : p.defaultValue();
            try {
                out.put(p.name(), p.coerce(v));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(p.name() + ": " + e.getMessage(), e);
            }
        }
        return out;
    }

    /**
     * One value of parameter {@code p} as a spec's grid writes it, in its stored form; a workload
     * that accepts a keyword for a number (dht-insert's {@code onload_cores: best}) maps it here.
     *
     * @throws IllegalArgumentException saying what would be valid
     */
    default Object coerce(WorkloadParameter p, Object value) {
        return p.coerce(value);
    }

    /** What a started workload reports once the simulation has ended. */
    interface Run {
        /** Bytes moved per second over the timed part, or 0 if not measured. */
        double bytesPerSecond();

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
            return new Run() {
                @Override
                public double bytesPerSecond() {
                    return 0;
                }

                @Override
                public boolean verified() {
                    return verified.getAsBoolean();
                }

                @Override
                public Map<String, Object> extraMetrics() {
                    return extraMetrics.get();
                }
            };
        }
    }
}
