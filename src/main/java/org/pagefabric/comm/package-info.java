/**
 * What an application calls, and the only way a workload reaches the machine: a {@link Job} is the
 * ranks of a parallel job on one cluster under one registration policy, and a {@link Rank} makes
 * one process's calls (write, read, send, receive, register, await) on its endpoint, each through
 * one path that asks the policy for keys first and charges the policy's work to the rank. An await
 * returns the rank's {@link CompletionEntry}, its view of the completion-queue entry it reaped,
 * refilled per queue, whose {@link Outcome} names how the operation ended. A rank's
 * {@link ProcessMemory} makes its process's memory calls (mmap, madvise, loads and stores, content
 * checks) on the node's kernel, so a workload needs neither the kernel nor the NIC by name. A
 * {@link RankObserver} hears every call as it begins, which is how a trace is recorded. Beside the
 * job's own queue pairs, {@link Messages} carries a workload's own active messages, and
 * {@link DatagramQueue} and {@link RawConnection} are the raw verbs queues an application opens for
 * itself; {@code comm.rma} emulates RMA over datagrams.
 *
 * <p>Layer: Communication, above the registration policies. It may use every layer below it
 * except the policy packages themselves, which it reaches only through {@code reg}'s interfaces;
 * it uses {@code reg}, {@code active}, {@code endpoint}, {@code hw}, {@code config} and
 * {@code sim}.
 */
package org.pagefabric.comm;
