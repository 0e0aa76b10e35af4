/**
 * The distributed hashtable of seed 002 §4.1 and §5.2.1 ({@link DhtInsertWorkload}): every process
 * owns a {@link Volume} and inserts elements into others' through one communication scheme
 * ({@link DhtScheme}): traditional RMA, active messages handled by the computing processes, by
 * onloaded cores or by interrupts, or Active Access puts, found through
 * {@link DhtSchemeProvider}.
 *
 * <p>Layer: Workloads. It may use every layer below it except the policy packages (it uses
 * {@code workload}, {@code workload.rma}, {@code active}, {@code comm}, {@code reg}, {@code sim}
 * and {@code hw}).
 */
package org.pagefabric.workload.dht;
