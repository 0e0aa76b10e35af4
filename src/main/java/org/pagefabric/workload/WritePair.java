package org.pagefabric.workload;

import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;

/**
 * The two ranks of a point-to-point write benchmark: rank 0 writes {@code size} bytes into
 * rank 1, {@code iterations} times; the source's bytes are filled before the run so the
 * receiver's copy can be checked.
 *
 * @param size bytes of one write
 * @param iterations timed writes
 * @param src the writing rank (rank 0)
 * @param dst the written rank (rank 1)
 */
record WritePair(long size, int iterations, Rank src, Rank dst) {
    /**
     * The pair of {@code job} with the standard size and iterations of {@code params}, the
     * source's first {@code size} bytes filled with {@code tag + size}.
     */
    static WritePair filled(Job job, Params params, long tag) {
        long size = StandardParameters.size(params);
        WritePair w = new WritePair(size, StandardParameters.iterations(params), job.rank(0), job.rank(1));
        DataCheck.fill(w.src, 0, size, tag + size);
        return w;
    }

    /** Whether the destination's first {@code size} bytes equal the source's. */
    boolean arrived() {
        return DataCheck.same(src, 0, dst, 0, size);
    }
}
