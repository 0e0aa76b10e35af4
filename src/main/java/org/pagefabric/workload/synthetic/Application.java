package org.pagefabric.workload.synthetic;

import org.pagefabric.hw.os.UserAllocator;
import org.pagefabric.sim.Time;
import org.pagefabric.workload.Params;
import org.pagefabric.workload.StandardParameters;

/**
 * The application a {@code synthetic} point describes, read from resolved parameter values and
 * checked as a whole: what one parameter's range cannot say (a smallest size above the largest,
 * shares of operations that do not add up to one) is refused here, in one line naming the
 * parameters.
 *
 * @param sizeMin       smallest buffer, bytes
 * @param sizeMax       largest buffer, bytes
 * @param sizes         how buffer sizes spread between the two
 * @param message       bytes per operation, 0 for the whole buffer
 * @param operations    timed operations per initiating rank
 * @param ranks         processes
 * @param peers         whom operations address
 * @param put           share of RDMA writes
 * @param get           share of RDMA reads
 * @param send          share of sends
 * @param workingSet    bytes a rank's buffers span (random reuse), 0 under a reuse distance
 * @param reuseDistance buffers used between two uses of one buffer (cyclic reuse), 0 for random
 * @param churn         probability that an operation reallocates its buffer first
 * @param linkage       how the allocator reaches the kernel
 * @param mmapThreshold allocations of at least this size are mapped on their own
 * @param computePs     computation between two operations, picoseconds
 */
record Application(long sizeMin, long sizeMax, SizeDistribution sizes, long message, int operations, int ranks,
        PeerPattern peers, double put, double get, double send, long workingSet, int reuseDistance, double churn,
        UserAllocator.Linkage linkage, long mmapThreshold, long computePs) {
    private static final long MIB = 1L << 20;
    /** Tolerance of the sum of the operation shares, for decimals written as 0.1 + 0.2 + 0.7. */
    private static final double SHARE_SLACK = 1e-9;

    /**
     * Reads and checks resolved values.
     *
     * @throws IllegalArgumentException naming the parameters and what would be valid
     */
    static Application of(Params p) {
        SizeDistribution dist = SizeDistribution.named(p.choice(SyntheticParameters.SIZE_DIST));
        long max = StandardParameters.size(p);
        long min = p.longValue(SyntheticParameters.SIZE_MIN);
        if (dist != SizeDistribution.FIXED && min > max) {
            throw new IllegalArgumentException(SyntheticParameters.SIZE_MIN + " " + min + " is above "
                    + StandardParameters.SIZE + " " + max + "; size_dist " + p.choice(SyntheticParameters.SIZE_DIST)
                    + " draws sizes between them");
        }
        double put = p.doubleValue(SyntheticParameters.PUT);
        double get = p.doubleValue(SyntheticParameters.GET);
        double send = p.doubleValue(SyntheticParameters.SEND);
        if (Math.abs(put + get + send - 1) > SHARE_SLACK) {
            throw new IllegalArgumentException(SyntheticParameters.PUT + " + " + SyntheticParameters.GET + " + "
                    + SyntheticParameters.SEND + " is " + (put + get + send) + "; the shares must add up to 1");
        }
        long workingSet = p.longValue(SyntheticParameters.WORKING_SET);
        int reuse = p.intValue(SyntheticParameters.REUSE_DISTANCE);
        if (reuse > 0 && workingSet > 0) {
            throw new IllegalArgumentException(SyntheticParameters.WORKING_SET + " " + workingSet + " and "
                    + SyntheticParameters.REUSE_DISTANCE + " " + reuse + " both set the buffers; give one, and set "
                    + SyntheticParameters.WORKING_SET + ": 0 with a reuse distance");
        }
        if (reuse == 0 && workingSet == 0) {
            throw new IllegalArgumentException(SyntheticParameters.WORKING_SET + " 0 needs "
                    + SyntheticParameters.REUSE_DISTANCE + " above 0; give one of them");
        }
        long smallest = dist == SizeDistribution.FIXED ? max : min;
        if (workingSet * MIB / smallest >= SyntheticParameters.MAX_BUFFERS) {
            throw new IllegalArgumentException(SyntheticParameters.WORKING_SET + " " + workingSet + " may hold "
                    + SyntheticParameters.MAX_BUFFERS + " or more buffers of " + smallest
                    + " B; use larger buffers or a smaller working set");
        }
        UserAllocator.Linkage linkage = p.is(SyntheticParameters.ALLOCATOR, "custom")
                ? UserAllocator.Linkage.CUSTOM : UserAllocator.Linkage.DYNAMIC;
        return new Application(dist == SizeDistribution.FIXED ? max : min, max, dist,
                p.longValue(SyntheticParameters.MESSAGE), StandardParameters.iterations(p),
                p.intValue(SyntheticParameters.RANKS),
                PeerPattern.named(p.choice(SyntheticParameters.PEERS)), put, get, send, workingSet * MIB, reuse,
                p.doubleValue(SyntheticParameters.CHURN), linkage, p.longValue(SyntheticParameters.MMAP_THRESHOLD),
                p.longValue(SyntheticParameters.COMPUTE) * Time.NS);
    }

    /** Bytes one operation moves from a buffer of {@code bufferBytes}. */
    long messageBytes(long bufferBytes) {
        return message == 0 ? bufferBytes : Math.min(message, bufferBytes);
    }

    /** Whether the ranks free and reallocate buffers while they communicate. */
    boolean churns() {
        return churn > 0;
    }
}
