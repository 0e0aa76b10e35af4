package org.pagefabric.workload.trace;

/**
 * Which algorithm a replay runs for a collective: the one Open MPI 4.1's tuned component picks in
 * its fixed decision (coll_tuned_decision_fixed.c) for that collective, communicator size and
 * message size, or, where it picks one the replay does not have, the nearest that moves the same
 * data between the same ranks (docs/TRACES.md gives the table). Reduction operators are taken as
 * commutative, as every predefined one is.
 */
public final class TunedDecision {
    private static final long K = 1024;

    private TunedDecision() {
    }

    /**
     * The algorithm for collective {@code c} over {@code p} members.
     *
     * @param bytes the bytes Open MPI decides on: the message for broadcast and reductions, one
     *              member's block for gathers, scatters and all-to-all, the sum of the blocks for
     *              reduce-scatter
     */
    public static CollectiveAlgorithm choose(Collective c, int p, long bytes) {
        boolean pow2 = Integer.bitCount(p) == 1;
        boolean small = p >= 4 && p < 8;
        return switch (c) {
            case BARRIER -> small ? CollectiveAlgorithm.LINEAR
                    : pow2 ? CollectiveAlgorithm.RECURSIVE_DOUBLING : CollectiveAlgorithm.DISSEMINATION;
            case BCAST -> !small ? CollectiveAlgorithm.BINOMIAL
                    : bytes < 8 * K ? CollectiveAlgorithm.BINOMIAL
                    : bytes < 1024 * K ? CollectiveAlgorithm.LINEAR : CollectiveAlgorithm.CHAIN;
            case REDUCE -> !small ? CollectiveAlgorithm.BINOMIAL
                    : bytes < 4 * K ? CollectiveAlgorithm.BINOMIAL
                    : bytes < 64 * K ? CollectiveAlgorithm.CHAIN
                    : bytes < 256 * K ? CollectiveAlgorithm.BINOMIAL
                    : bytes < 512 * K ? CollectiveAlgorithm.LINEAR
                    : bytes < 1024 * K ? CollectiveAlgorithm.BINOMIAL : CollectiveAlgorithm.LINEAR;
            case ALLREDUCE -> allreduce(p, bytes, pow2, small);
            case SCAN -> CollectiveAlgorithm.CHAIN;
            case REDUCE_SCATTER, REDUCE_SCATTER_BLOCK -> CollectiveAlgorithm.PAIRWISE;
            case ALLGATHER -> pow2 && p < 32 ? CollectiveAlgorithm.RECURSIVE_DOUBLING : CollectiveAlgorithm.RING;
            case ALLGATHERV -> CollectiveAlgorithm.RING;
            case GATHER, GATHERV, SCATTER, SCATTERV -> CollectiveAlgorithm.LINEAR;
            case ALLTOALL -> small && bytes >= 512 * K && bytes < 1024 * K || !small && bytes >= 8 * K
                    ? CollectiveAlgorithm.PAIRWISE : CollectiveAlgorithm.LINEAR;
            case ALLTOALLV -> p < 4 ? CollectiveAlgorithm.PAIRWISE : CollectiveAlgorithm.LINEAR;
        };
    }

    private static CollectiveAlgorithm allreduce(int p, long bytes, boolean pow2, boolean small) {
        // Open MPI's own recursive doubling folds the extra ranks of a count that is not a power of
        // two into partners first; the replay's schedule is MpiApp's, a reduce then a broadcast
        CollectiveAlgorithm rd = pow2 ? CollectiveAlgorithm.RECURSIVE_DOUBLING : CollectiveAlgorithm.REDUCE_THEN_BCAST;
        if (bytes < p) {
            // Open MPI's ring and Rabenseifner fall back to recursive doubling for fewer elements than ranks
            return rd;
        }
        if (small) {
            // ring below 16 bytes, recursive doubling below 8 KiB, Rabenseifner above
            return bytes < 16 ? CollectiveAlgorithm.REDUCE_SCATTER_THEN_ALLGATHER
                    : bytes < 8 * K ? rd : CollectiveAlgorithm.REDUCE_SCATTER_THEN_ALLGATHER;
        }
        return bytes < 8 * K ? rd : CollectiveAlgorithm.REDUCE_SCATTER_THEN_ALLGATHER;
    }
}
