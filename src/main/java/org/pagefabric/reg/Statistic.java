package org.pagefabric.reg;

import org.pagefabric.sim.stat.Counter;
import org.pagefabric.sim.stat.LatencyHistogram;
import org.pagefabric.sim.stat.StatisticsRegistry;

/**
 * A statistic a registration policy publishes in the simulator's statistics, declared next to the
 * code that counts it so that {@code pagefabric info POLICY} lists it.
 *
 * <p>A name may hold two variables: {@value #NODE} stands for the name of each node that runs a
 * rank of the job (a statistic kept per node, such as a driver's), {@value #POLICY} for the
 * policy's own name (one statistic per job, named after the variant that keeps it). Every
 * statistic a descriptor lists exists, with the variables filled in, once the policy has set up
 * a job's ranks.
 *
 * @param name        the statistic's name, e.g. {@code <node>.odp.faults}, {@code <policy>.hits}
 *                    or {@code firehose.moves}
 * @param unit        unit of the value
 * @param description one line saying what is counted
 */
public record Statistic(String name, String unit, String description) {
    /** The variable standing for each node that runs a rank. */
    public static final String NODE = "<node>";
    /** The variable standing for the policy's name. */
    public static final String POLICY = "<policy>";

    /**
     * Declares this per-job statistic as a counter of {@code policy} in {@code stats}: the one
     * declaration serves both the descriptor and the code that counts.
     */
    public Counter counterOf(StatisticsRegistry stats, String policy) {
        return stats.counter(nameFor(policy, NODE), unit, description);
    }

    /** Declares this per-job statistic as a latency histogram of {@code policy} in {@code stats}. */
    public LatencyHistogram latencyOf(StatisticsRegistry stats, String policy) {
        return stats.latency(nameFor(policy, NODE), description);
    }

    /** The name with {@link #POLICY} replaced by {@code policy} and {@link #NODE} by {@code node}. */
    public String nameFor(String policy, String node) {
        return name.replace(POLICY, policy).replace(NODE, node);
    }
}
