package org.pagefabric.comm;

/**
 * Hears every communication call a {@link Rank} makes, as the call begins (before the policy or
 * the NIC do anything), with the simulated time: what a trace recorder needs to write down what
 * an application did. Virtual addresses are absolute (segment offsets already resolved).
 */
public interface RankObserver {
    /** An RDMA write of {@code length} bytes from {@code localVa} to {@code remoteVa} of {@code target}. */
    void write(Rank rank, long nowPs, Rank target, long localVa, long remoteVa, long length, long wrId);

    /** An RDMA read of {@code length} bytes of {@code target}'s {@code remoteVa} into {@code localVa}. */
    void read(Rank rank, long nowPs, Rank target, long localVa, long remoteVa, long length, long wrId);

    /** A send of {@code length} bytes at {@code localVa} to {@code target}. */
    void send(Rank rank, long nowPs, Rank target, long localVa, long length, long wrId);

    /** A receive of up to {@code length} bytes at {@code va} from {@code source}. */
    void receive(Rank rank, long nowPs, Rank source, long va, long length, long wrId);

    /** The rank starts waiting for its next send-queue ({@code sendQueue}) or receive completion. */
    void awaiting(Rank rank, long nowPs, boolean sendQueue);

    /**
     * The registration policy's work for the call that began at {@code startPs} ended at
     * {@code endPs}, and the operation {@code wrId} was handed to the NIC (or the policy's own
     * messaging).
     */
    default void posted(Rank rank, long startPs, long endPs, long wrId) {
    }

    /**
     * The wait that began at {@code startPs} reaped {@code c} at {@code endPs}; {@code c} is the
     * rank's view of its last completion, valid during the call.
     */
    default void reaped(Rank rank, long startPs, long endPs, CompletionEntry c) {
    }

    /** The rank computed from {@code startPs} to {@code endPs}. */
    default void computed(Rank rank, long startPs, long endPs) {
    }
}
