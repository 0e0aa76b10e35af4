/**
 * The statistics of one simulation: declared ({@link Statistic}: name, unit, one line of
 * documentation) and kept by name in a {@link StatisticsRegistry} that reports in name order.
 * The kinds are {@link Counter}, {@link Accumulator} (Welford mean and deviation),
 * {@link TimeWeightedAverage} (a level over virtual time) and {@link LatencyHistogram}
 * (HdrHistogram percentiles).
 *
 * <p>Layer: Simulation kernel. It uses nothing of PageFabric, so any layer may use it.
 */
package org.pagefabric.sim.stat;
