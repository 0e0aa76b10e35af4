package org.pagefabric.workload.aaapps;

import org.pagefabric.sim.RandomStream;

/**
 * The end check of a parallel sort: whether the parts the processes received, each merged on
 * its own and laid end to end in process order, form one ascending sequence, and whether
 * together they are a permutation of the input (its count and its order-free digest, the sum of
 * {@link RandomStream#mix64} of every key).
 *
 * <p>Merging a part only reorders it, so the check needs no merge: a merged part ascends by
 * construction, its first key is the part's minimum and its last the maximum, and the sequence
 * ascends across parts exactly when every non-empty part's minimum is at least the maximum of
 * the non-empty part before it. That is one linear pass instead of sorting every part.
 */
final class SortCheck {
    private SortCheck() {
    }

    /**
     * Whether {@code parts} (none null) merge into an ascending sequence holding {@code count}
     * keys whose digest is {@code digest}.
     */
    static boolean sortedPermutation(long[][] parts, long count, long digest) {
        long n = 0;
        long d = 0;
        long previous = Long.MIN_VALUE;
        for (long[] part : parts) {
            if (part == null) {
                return false;
            }
            if (part.length == 0) {
                continue;
            }
            long min = Long.MAX_VALUE;
            long max = Long.MIN_VALUE;
            for (long k : part) {
                min = Math.min(min, k);
                max = Math.max(max, k);
                d += RandomStream.mix64(k);
            }
            if (min < previous) {
                return false;
            }
            previous = max;
            n += part.length;
        }
        return n == count && d == digest;
    }
}
