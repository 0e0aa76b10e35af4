package org.pagefabric.workload.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Rows of the decision table docs/TRACES.md prints: Open MPI 4.1's picks for 4 to 7 ranks. */
class TunedDecisionTest {
    @ParameterizedTest
    @CsvSource({
        "ALLREDUCE, 4, 3, RECURSIVE_DOUBLING",
        "ALLREDUCE, 4, 8, REDUCE_SCATTER_THEN_ALLGATHER",
        "ALLREDUCE, 4, 16, RECURSIVE_DOUBLING",
        "ALLREDUCE, 4, 8191, RECURSIVE_DOUBLING",
        "ALLREDUCE, 4, 8192, REDUCE_SCATTER_THEN_ALLGATHER",
        "ALLREDUCE, 6, 64, REDUCE_THEN_BCAST",
        "BCAST, 4, 8191, BINOMIAL",
        "BCAST, 4, 8192, LINEAR",
        "BCAST, 4, 1048576, CHAIN",
        "REDUCE, 4, 4095, BINOMIAL",
        "REDUCE, 4, 4096, CHAIN",
        "REDUCE, 4, 300000, LINEAR",
        "BARRIER, 4, 0, LINEAR",
        "BARRIER, 8, 0, RECURSIVE_DOUBLING",
        "BARRIER, 12, 0, DISSEMINATION",
        "ALLGATHER, 4, 100, RECURSIVE_DOUBLING",
        "ALLGATHER, 6, 100, RING",
        "ALLTOALL, 4, 600000, PAIRWISE",
        "ALLTOALL, 4, 4096, LINEAR",
        "ALLTOALLV, 4, 4096, LINEAR",
        "SCAN, 4, 8, CHAIN",
    })
    void picksAsTheTableSays(Collective c, int p, long bytes, CollectiveAlgorithm expected) {
        assertEquals(expected, TunedDecision.choose(c, p, bytes));
    }
}
