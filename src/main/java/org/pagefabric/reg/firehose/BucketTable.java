package org.pagefabric.reg.firehose;

import java.util.Arrays;

/**
 * The local bucket table of one rank (004 §3.2, Table 1): for every bucket of the rank's
 * segment, whether it is pinned, its reference counts and its place in the bucket victim FIFO.
 * Bookkeeping only, in primitive arrays indexed by bucket number (the paper's "simple array"),
 * so every operation is O(1); {@link BucketPins} does the pinning it decides.
 *
 * <p>Reference counts are kept apart, as GASNet does: <em>remote</em> references are the
 * firehoses other nodes hold on the bucket, <em>local</em> ones the operations this rank has in
 * flight from or into it. A pinned bucket with no reference of either kind sits in the victim
 * FIFO (lazy deregistration) until it is referenced again, evicted to make room for a pin, or
 * pushed out of the FIFO's tail when the FIFO holds more than MAXVICTIM.
 *
 * <p>Bounds, checked on every change (an {@link IllegalStateException} if broken):
 * <ul>
 *   <li>pinned buckets (pinned or being pinned) never exceed {@code limit}, the buckets in
 *       M + MAXVICTIM;
 *   <li>buckets with local references never exceed {@code localLimit}, the buckets in
 *       MAXVICTIM: the space the local node is guaranteed for its own pins, which together with
 *       the at most M of remote firehoses is what keeps a new pin always within the limit once
 *       the FIFO is emptied;
 *   <li>no reference count goes below zero, and only unreferenced buckets are evicted.
 * </ul>
 */
final class BucketTable {
    /** Not pinned. */
    static final byte UNPINNED = 0;
    /** Being pinned: counted as pinned, referenced, not yet usable. */
    static final byte PENDING = 1;
    /** Pinned and usable. */
    static final byte PINNED = 2;
    private static final int NONE = -1;

    private final byte[] state;
    private final int[] remoteRefs;
    private final int[] localRefs;
    /** FIFO links: {@code newer[b]} towards the head (most recently released), {@code older[b]} towards the tail. */
    private final int[] newer;
    private final int[] older;
    private final int limit;
    private final int localLimit;
    private final int victimLimit;
    private int head = NONE;
    private int tail = NONE;
    private int fifoLength;
    private int pinned;
    private int localBuckets;

    /**
     * @param buckets     buckets in the segment
     * @param limit       most buckets pinned at once (M + MAXVICTIM)
     * @param victimLimit most buckets kept in the victim FIFO (MAXVICTIM), also the most buckets
     *                    local operations may reference at once
     */
    BucketTable(int buckets, int limit, int victimLimit) {
        if (buckets < 1 || limit < 1 || victimLimit < 1) {
            throw new IllegalArgumentException("bucket table of " + buckets + " buckets, limit " + limit
                    + ", victim limit " + victimLimit + ": all must be at least 1");
        }
        state = new byte[buckets];
        remoteRefs = new int[buckets];
        localRefs = new int[buckets];
        newer = new int[buckets];
        older = new int[buckets];
        Arrays.fill(newer, NONE);
        Arrays.fill(older, NONE);
        this.limit = limit;
        this.localLimit = victimLimit;
        this.victimLimit = victimLimit;
    }

    /** Buckets in the table. */
    int buckets() {
        return state.length;
    }

    /** {@link #UNPINNED}, {@link #PENDING} or {@link #PINNED}. */
    byte state(int b) {
        return state[b];
    }

    /** Firehoses other nodes hold on bucket {@code b}. */
    int remoteRefs(int b) {
        return remoteRefs[b];
    }

    /** Local operations in flight on bucket {@code b}. */
    int localRefs(int b) {
        return localRefs[b];
    }

    /** Buckets pinned or being pinned. */
    int pinned() {
        return pinned;
    }

    /** Most buckets pinned at once. */
    int limit() {
        return limit;
    }

    /** Buckets in the victim FIFO. */
    int fifoLength() {
        return fifoLength;
    }

    /** Buckets local operations reference now. */
    int localBuckets() {
        return localBuckets;
    }

    /** Most buckets local operations may reference at once. */
    int localLimit() {
        return localLimit;
    }

    /** Whether bucket {@code b} is pinned and unreferenced, i.e. in the victim FIFO. */
    boolean inFifo(int b) {
        return state[b] == PINNED && remoteRefs[b] == 0 && localRefs[b] == 0;
    }

    /** Whether a new pin needs an eviction first. */
    boolean full() {
        return pinned >= limit;
    }

    /** Whether the FIFO holds more than MAXVICTIM and its tail must be unpinned. */
    boolean fifoOverLimit() {
        return fifoLength > victimLimit;
    }

    /**
     * Adds a reference to a bucket that is pinned or being pinned; a bucket taken out of the
     * victim FIFO this way costs no pinning.
     *
     * @return whether the bucket came out of the victim FIFO
     */
    boolean acquire(int b, boolean remote) {
        if (state[b] == UNPINNED) {
            throw new IllegalStateException("bucket " + b + " is not pinned: it must be pinned, not referenced");
        }
        boolean revived = remoteRefs[b] == 0 && localRefs[b] == 0;
        if (revived) {
            unlink(b);
        }
        addRef(b, remote);
        return revived;
    }

    /** Marks an unpinned bucket as being pinned, with the caller's reference on it. */
    void beginPin(int b, boolean remote) {
        if (state[b] != UNPINNED) {
            throw new IllegalStateException("bucket " + b + " is already pinned");
        }
        if (pinned >= limit) {
            throw new IllegalStateException("pinning bucket " + b + " would exceed M + MAXVICTIM (" + limit
                    + " buckets) with " + fifoLength + " in the victim FIFO");
        }
        state[b] = PENDING;
        pinned++;
        addRef(b, remote);
    }

    /** The pin of bucket {@code b} is done: the bucket is usable. */
    void finishPin(int b) {
        if (state[b] != PENDING) {
            throw new IllegalStateException("bucket " + b + " is not being pinned");
        }
        state[b] = PINNED;
    }

    private void addRef(int b, boolean remote) {
        if (remote) {
            remoteRefs[b]++;
            return;
        }
        if (localRefs[b]++ == 0) {
            if (localBuckets >= localLimit) {
                localRefs[b]--;
                throw new IllegalStateException("local operations would reference more than MAXVICTIM ("
                        + localLimit + " buckets)");
            }
            localBuckets++;
        }
    }

    /**
     * Drops a reference; a bucket left without any goes to the head of the victim FIFO, still
     * pinned (lazy deregistration).
     *
     * @return whether the bucket entered the victim FIFO
     * @throws IllegalStateException if the count would go below zero
     */
    boolean release(int b, boolean remote) {
        int[] refs = remote ? remoteRefs : localRefs;
        if (refs[b] == 0) {
            throw new IllegalStateException((remote ? "remote" : "local") + " reference count of bucket " + b
                    + " would go below zero");
        }
        refs[b]--;
        if (!remote && refs[b] == 0) {
            localBuckets--;
        }
        if (remoteRefs[b] != 0 || localRefs[b] != 0) {
            return false;
        }
        if (state[b] != PINNED) {
            throw new IllegalStateException("bucket " + b + " lost its last reference before its pin finished");
        }
        pushHead(b);
        return true;
    }

    /**
     * Takes the oldest bucket out of the victim FIFO and marks it unpinned; the caller unpins it.
     *
     * @return the bucket, or -1 if the FIFO is empty
     */
    int evictOldest() {
        int b = tail;
        if (b == NONE) {
            return NONE;
        }
        if (remoteRefs[b] != 0 || localRefs[b] != 0) {
            throw new IllegalStateException("bucket " + b + " in the victim FIFO is in use");
        }
        unlink(b);
        state[b] = UNPINNED;
        pinned--;
        return b;
    }

    private void pushHead(int b) {
        older[b] = head;
        newer[b] = NONE;
        if (head != NONE) {
            newer[head] = b;
        } else {
            tail = b;
        }
        head = b;
        fifoLength++;
    }

    private void unlink(int b) {
        int n = newer[b];
        int o = older[b];
        if (n != NONE) {
            older[n] = o;
        } else {
            head = o;
        }
        if (o != NONE) {
            newer[o] = n;
        } else {
            tail = n;
        }
        newer[b] = NONE;
        older[b] = NONE;
        fifoLength--;
    }

    /** The bounds of the class comment, checked in O(1) after every operation of the policy. */
    void checkBounds() {
        if (pinned > limit || pinned < 0) {
            throw new IllegalStateException(pinned + " buckets pinned, limit M + MAXVICTIM = " + limit);
        }
        if (localBuckets > localLimit || localBuckets < 0) {
            throw new IllegalStateException(localBuckets + " buckets locally referenced, limit MAXVICTIM = "
                    + localLimit);
        }
        if (fifoLength > pinned) {
            throw new IllegalStateException(fifoLength + " buckets in the victim FIFO but " + pinned + " pinned");
        }
    }

    /**
     * Checks the whole table against its counters and the FIFO against the states, in O(buckets):
     * for tests and end-of-run audits, not for hot paths.
     */
    void audit() {
        int p = 0;
        int l = 0;
        int f = 0;
        for (int b = 0; b < state.length; b++) {
            if (remoteRefs[b] < 0 || localRefs[b] < 0) {
                throw new IllegalStateException("bucket " + b + " has a negative reference count");
            }
            if (state[b] == UNPINNED && (remoteRefs[b] != 0 || localRefs[b] != 0)) {
                throw new IllegalStateException("bucket " + b + " is referenced but not pinned");
            }
            p += state[b] != UNPINNED ? 1 : 0;
            l += localRefs[b] > 0 ? 1 : 0;
            f += inFifo(b) ? 1 : 0;
        }
        int walked = 0;
        for (int b = head; b != NONE; b = older[b]) {
            if (!inFifo(b)) {
                throw new IllegalStateException("bucket " + b + " is in the victim FIFO but in use or unpinned");
            }
            walked++;
        }
        if (p != pinned || l != localBuckets || f != fifoLength || walked != fifoLength) {
            throw new IllegalStateException("bucket table counters disagree: pinned " + p + "/" + pinned + ", local "
                    + l + "/" + localBuckets + ", FIFO " + f + "/" + walked + "/" + fifoLength);
        }
        checkBounds();
    }
}
