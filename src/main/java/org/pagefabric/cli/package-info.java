/**
 * The {@code pagefabric} command line ({@link Main}, picocli): {@code run}, {@code reproduce},
 * {@code compare}, {@code fit}, {@code merge}, {@code slurm}, {@code calibrate}, {@code info} and
 * {@code bench}, one command class each, with what they share: exit codes ({@link ExitCodes}),
 * output checks and writing ({@link OutputPaths}, {@link ExperimentOutput}, {@link RowFormat}),
 * message-size lists ({@link SizeList}) and Slurm job scripts ({@link SlurmScripts},
 * {@link Sbatch}, {@link ShardManifest}).
 *
 * <p>Layer: Command line, the top layer: it may use every layer below it (mostly
 * {@code experiment}, {@code report}, {@code workload}, {@code config}, {@code calibrate} and
 * {@code bench}) except the policy packages, which it meets only through {@code reg}'s registry,
 * and nothing uses it.
 */
package org.pagefabric.cli;
