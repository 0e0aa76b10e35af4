package org.pagefabric.reg.firehose;

/**
 * How a firehose move travels in the four 64-bit arguments of an active message: each argument
 * is one run of consecutive buckets, either to release (the firehoses moved away from them) or
 * to pin (the firehoses moved onto them). Runs keep moves to one message in the common cases: an
 * 8-byte miss (one victim, one new bucket) and a bulk miss whose victims are the buckets of one
 * earlier put, released together and hence adjacent in the firehose FIFO.
 *
 * <p>Layout of a run: bit 63 set for a release; bits 24..54 the first bucket; bits 0..23 the
 * count. A zero argument is no run.
 */
final class MoveRuns {
    /** Runs in one message. */
    static final int PER_MESSAGE = 4;
    /** Longest run one argument holds. */
    static final int MAX_COUNT = (1 << 24) - 1;
    private static final long RELEASE = 1L << 63;

    private MoveRuns() {
    }

    /** The run of {@code count} buckets from {@code first}. */
    static long run(int first, int count, boolean release) {
        if (first < 0 || count < 1 || count > MAX_COUNT) {
            throw new IllegalArgumentException("run of " + count + " buckets from " + first);
        }
        return (release ? RELEASE : 0) | ((long) first << 24) | count;
    }

    /** Whether {@code run} releases buckets (otherwise it pins them). */
    static boolean isRelease(long run) {
        return (run & RELEASE) != 0;
    }

    /** First bucket of {@code run}. */
    static int first(long run) {
        return (int) ((run & ~RELEASE) >>> 24);
    }

    /** Buckets in {@code run} (0: no run). */
    static int count(long run) {
        return (int) (run & MAX_COUNT);
    }

    /**
     * Appends the runs of {@code buckets[0..n)}, coalescing each bucket with the previous one
     * when it follows it.
     *
     * @param out  where runs go, from {@code at}; long enough for {@code n} runs
     * @return the index after the last run written
     */
    static int append(int[] buckets, int n, boolean release, long[] out, int at) {
        int i = 0;
        while (i < n) {
            int first = buckets[i];
            int count = 1;
            while (i + count < n && buckets[i + count] == first + count && count < MAX_COUNT) {
                count++;
            }
            out[at++] = run(first, count, release);
            i += count;
        }
        return at;
    }
}
