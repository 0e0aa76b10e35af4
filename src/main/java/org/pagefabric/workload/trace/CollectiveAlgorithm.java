package org.pagefabric.workload.trace;

/**
 * The point-to-point schedules a replay expands a collective into: the algorithms of
 * {@link org.pagefabric.workload.MpiApp} (binomial tree, recursive doubling, ring, pairwise
 * exchange) and the simple ones Open MPI's tuned component also picks (linear, chain,
 * dissemination).
 */
public enum CollectiveAlgorithm {
    /** Everyone to the root, or the root to everyone, one message each. */
    LINEAR,
    /** A chain: member i talks to i-1 and i+1 only. */
    CHAIN,
    /** A binomial tree from or to the root. */
    BINOMIAL,
    /** Recursive doubling: in step k, member i exchanges with i xor 2^k (a power-of-two count). */
    RECURSIVE_DOUBLING,
    /** A reduce to the first member, then a broadcast from it (Open MPI's "nonoverlapping"). */
    REDUCE_THEN_BCAST,
    /** A pairwise-exchange reduce-scatter, then a ring allgather of the reduced blocks. */
    REDUCE_SCATTER_THEN_ALLGATHER,
    /** A ring: in step k each member passes on the block it received in step k-1. */
    RING,
    /** Pairwise exchange: in step k, member i sends to i+k and receives from i-k. */
    PAIRWISE,
    /** Dissemination: in step k, member i signals i+2^k and hears from i-2^k. */
    DISSEMINATION
}
