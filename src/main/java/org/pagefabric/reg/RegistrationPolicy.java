package org.pagefabric.reg;

import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.workload.Job;
import org.pagefabric.workload.Rank;

/**
 * How a rank makes its memory reachable by the NIC: the contract every registration policy
 * (pin everything, pin-down cache, Firehose, Open-MX, ODP, PART, Active Access) implements, so
 * that the same workload runs under each and the results compare.
 *
 * <p>A policy is asked, for every buffer an operation touches, for the key to use and the time
 * its own work took (pinning, cache lookups, handshakes); the caller charges that time to the
 * rank before posting the operation.
 */
public interface RegistrationPolicy {
    /** The name used on the command line and in results, e.g. {@code pin-all}. */
    String name();

    /**
     * Prepares a rank once, before it communicates: whatever the policy registers up front.
     *
     * @return the time the preparation took, in picoseconds
     */
    long setUp(Rank rank);

    /**
     * Called once every rank is set up, before the workload starts: a policy that talks to its
     * peers (rendezvous, Firehose moves) starts its message handlers here.
     */
    default void start(Job job) {
    }

    /**
     * The local key for {@code [va, va + length)} of {@code rank}. The policy may spend time in
     * {@code ctx} (pinning, waiting for a peer); the returned cost is charged on top.
     */
    Access local(ProcessContext ctx, Rank rank, long va, long length);

    /** The remote key of {@code [va, va + length)} at {@code target}, as {@code initiator} knows it. */
    Access remote(ProcessContext ctx, Rank initiator, Rank target, long va, long length);

    /**
     * An operation that used those keys completed (its completion was reaped): a policy that
     * unpins after each transfer, or releases a reference, does it here.
     *
     * @param target   the peer, or {@code null} for a purely local operation
     * @param localVa  the local buffer
     * @param remoteVa the remote buffer (0 for two-sided operations)
     */
    default void completed(ProcessContext ctx, Rank initiator, Rank target, long localVa, long remoteVa, long length) {
    }

    /** Pinned bytes this policy holds on {@code rank}'s node now. */
    long pinnedBytes(Rank rank);

    /**
     * A key and the time spent obtaining it.
     *
     * @param key    the memory key to put in the work request
     * @param costPs time the policy's work took, in picoseconds
     */
    record Access(int key, long costPs) {
    }
}
