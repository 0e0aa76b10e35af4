/**
 * Traces of what a job's ranks did (JSON Lines, docs/TRACES.md): reading and writing them
 * ({@link TraceReader}, {@link TraceWriter}), recording them from a running job through
 * {@code comm}'s observer ({@link TraceRecorder}), importing the memory calls of a real program
 * from strace ({@link StraceImport}), and replaying them under any policy ({@link TraceWorkload},
 * {@link TraceReplay}), with the trace's addresses mapped into the replaying ranks' address spaces
 * ({@link AddressMap}).
 *
 * <p>Layer: Workloads. It may use every layer below it except the policy packages (it uses
 * {@code workload}, {@code comm}, {@code reg}, {@code hw.os} and {@code sim}); the command line
 * uses it to record and import traces.
 */
package org.pagefabric.workload.trace;
