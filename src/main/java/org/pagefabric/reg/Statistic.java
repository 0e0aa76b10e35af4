package org.pagefabric.reg;

/**
 * A statistic a registration policy publishes in the simulator's statistics, declared next to the
 * code that counts it so that {@code pagefabric info POLICY} lists it.
 *
 * @param name        the statistic's name, {@code <node>} standing for each node's name,
 *                    e.g. {@code <node>.firehose.moves}
 * @param unit        unit of the value
 * @param description one line saying what is counted
 */
public record Statistic(String name, String unit, String description) {
}
