package org.pagefabric.reg.firehose;

import org.pagefabric.config.Parameter;

/** Firehose over an active-message layer (seed 004). */
public final class FirehoseParameters {
    /** Pinnable memory a node guarantees to remote firehoses (M). */
    public static final Parameter M = Parameter.size("firehose.m",
            "Memory a node lets remote firehoses pin (M), split evenly over the other nodes.");
    /** Pinned memory kept in the victim FIFO (MAXVICTIM). */
    public static final Parameter MAXVICTIM = Parameter.size("firehose.maxvictim",
            "Memory of zero-reference buckets kept pinned in the victim FIFO (MAXVICTIM).");
    /** Bucket size. */
    public static final Parameter BUCKET_SIZE = Parameter.size("firehose.bucket_size",
            "Unit of firehose bookkeeping and pinning: a whole number of pages.").powerOfTwo();
    /** Remote handler time of a move that needs no pinning. */
    public static final Parameter MOVE_HANDLER = Parameter.time("firehose.move.handler",
            "Remote handler time of a firehose move whose buckets are already pinned (no registration).");
    /** Requester-side bookkeeping of a firehose miss. */
    public static final Parameter BOOKKEEPING = Parameter.time("firehose.bookkeeping",
            "Requester-side work of a miss: building the firehose list and updating the firehose table.");

    private FirehoseParameters() {
    }
}
