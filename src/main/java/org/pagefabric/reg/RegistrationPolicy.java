package org.pagefabric.reg;

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

    /** The local key for {@code [va, va + length)} of {@code rank}, and the time getting it took. */
    Access local(Rank rank, long va, long length);

    /** The remote key of {@code [va, va + length)} at {@code target}, as {@code initiator} knows it. */
    Access remote(Rank initiator, Rank target, long va, long length);

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
