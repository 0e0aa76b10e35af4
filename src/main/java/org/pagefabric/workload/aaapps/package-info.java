/**
 * The Active Access applications of seed 002 §4.2-4.4 and §5.2.2-5.2.5: access counting
 * ({@link AccessCounterWorkload}), logging of gets for fault tolerance
 * ({@link LoggedGetsWorkload}) and the fault-tolerant parallel sort
 * ({@link CoralSortWorkload}), on light processes whose remote operations go through
 * {@link AppFabric}, each under one way of counting or logging remote accesses
 * ({@link AppScheme}, found through {@link AppSchemeProvider}).
 *
 * <p>Layer: Workloads. It may use every layer below it except the policy packages (it uses
 * {@code workload}, {@code workload.rma}, {@code active}, {@code hw.iommu.aa}, {@code comm} and
 * {@code sim}).
 */
package org.pagefabric.workload.aaapps;
