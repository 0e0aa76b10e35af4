package org.pagefabric.reg.firehose;

import org.pagefabric.config.Profile;

/**
 * The tunables of Firehose (004 §3.2) and what follows from them, in buckets.
 *
 * @param m           bytes a node lets remote firehoses pin (M)
 * @param maxVictim   bytes of unreferenced buckets kept pinned (MAXVICTIM); also the space the
 *                    local node is guaranteed for its own pins
 * @param bucketBytes bytes per bucket, a whole number of pages
 */
public record FirehoseConfig(long m, long maxVictim, long bucketBytes) {
    /** Checks that M and MAXVICTIM hold at least one bucket each. */
    public FirehoseConfig {
        if (bucketBytes <= 0) {
            throw new IllegalArgumentException("firehose.bucket_size must be positive, not " + bucketBytes);
        }
        if (m < bucketBytes || maxVictim < bucketBytes) {
            throw new IllegalArgumentException("firehose.m (" + m + " B) and firehose.maxvictim (" + maxVictim
                    + " B) must each hold at least one bucket of " + bucketBytes + " B");
        }
    }

    /** The configuration of {@code profile}. */
    public static FirehoseConfig of(Profile profile) {
        return new FirehoseConfig(profile.size(FirehoseParameters.M), profile.size(FirehoseParameters.MAXVICTIM),
                profile.size(FirehoseParameters.BUCKET_SIZE));
    }

    /** F = floor(M / (B (nodes - 1))): firehoses each node owns to every other node. */
    public int firehosesPerNode(int nodes) {
        if (nodes < 2) {
            throw new IllegalArgumentException("Firehose needs at least two nodes, not " + nodes);
        }
        return Math.toIntExact(m / (bucketBytes * (nodes - 1)));
    }

    /** Buckets the victim FIFO keeps at most (MAXVICTIM / B). */
    public int victimBuckets() {
        return Math.toIntExact(maxVictim / bucketBytes);
    }

    /** Buckets pinned at most on a node: M / B + MAXVICTIM / B, so never more than M + MAXVICTIM bytes. */
    public int limitBuckets() {
        return Math.toIntExact(m / bucketBytes + maxVictim / bucketBytes);
    }

    /** The hard limit on pinned bytes, M + MAXVICTIM. */
    public long limitBytes() {
        return m + maxVictim;
    }
}
