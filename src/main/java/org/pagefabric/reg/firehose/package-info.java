/**
 * Firehose (seed 004 §3.2): distributed management of pinned memory, each node owning F
 * firehoses to every other node and moving them with active messages, a local bucket table with
 * reference counts and a victim FIFO for lazy deregistration, and pinned memory bounded by
 * M + MAXVICTIM on every node. {@link org.pagefabric.reg.firehose.FirehosePolicy} is the entry
 * point.
 */
package org.pagefabric.reg.firehose;
