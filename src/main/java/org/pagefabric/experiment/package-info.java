/**
 * Experiments: a YAML spec ({@link ExperimentSpec}, read and validated by {@link SpecReader}
 * with positions from {@link YamlNode}) expands into a {@link Grid} of points, which
 * {@link ExperimentRunner} and {@link PointPool} run on worker threads, each point in its own
 * simulation, into tidy rows ({@link ExperimentResult}, {@link ResultWriter}, {@link RowCodec}).
 * Around that: resuming from finished points ({@link PointCache}), sharding a sweep
 * ({@link Shard}), comparing with what a paper published ({@link ReferenceComparison},
 * {@link Verdict}, {@link DerivedMetric}), choosing a policy ({@link PolicyComparison},
 * {@link Decision}), fitting free cost parameters ({@link ParameterFit}) and estimating a point's
 * cost and heap ({@link CostModel}, {@link Footprint}).
 *
 * <p>Layer: Experiments, above the workloads. It may use every layer below it except the policy
 * packages (it uses {@code config}, {@code workload}, {@code reg}'s registry and {@code sim});
 * reports and the command line build on it, never the reverse.
 */
package org.pagefabric.experiment;
