/**
 * The {@code synthetic} workload: an application described by its traits rather than its code
 * (buffer sizes and their spread, reuse, reallocation, the mix of operations and whom they
 * address), drawn per rank from the rank's own random stream ({@link OperationDraw}) and run
 * through {@code comm} with every delivery checked ({@link Inbox}, {@link Tally}).
 *
 * <p>Layer: Workloads. It may use every layer below it except the policy packages (it uses
 * {@code workload}, {@code comm}, {@code sim}, {@code reg} and {@code hw}) and no sibling workload
 * package.
 */
package org.pagefabric.workload.synthetic;
