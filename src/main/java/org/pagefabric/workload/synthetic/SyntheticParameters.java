package org.pagefabric.workload.synthetic;

import java.util.List;
import org.pagefabric.workload.StandardParameters;
import org.pagefabric.workload.WorkloadParameter;

/** The parameters of the {@code synthetic} workload, each a trait of the application it stands for. */
final class SyntheticParameters {
    static final String SIZE_MIN = "size_min_B";
    static final String SIZE_DIST = "size_dist";
    static final String MESSAGE = "message_B";
    static final String RANKS = "ranks";
    static final String PEERS = "peers";
    static final String PUT = "put_fraction";
    static final String GET = "get_fraction";
    static final String SEND = "send_fraction";
    static final String WORKING_SET = "working_set_MiB";
    static final String REUSE_DISTANCE = "reuse_distance";
    static final String CHURN = "churn";
    static final String ALLOCATOR = "allocator";
    static final String MMAP_THRESHOLD = "mmap_threshold_B";
    static final String COMPUTE = "compute_ns";

    /** Buffers a rank may hold: the schedule keeps one slot index per buffer. */
    static final int MAX_BUFFERS = 1 << 16;
    static final int MAX_RANKS = 64;
    private static final long KIB = 1024;

    static final List<WorkloadParameter> ALL = List.of(
            // the largest buffer (every buffer under size_dist fixed), and so the largest message; 64 KiB is
            // below glibc's mmap threshold, so by default buffers live in the heap as most do
            StandardParameters.size(64 * KIB),
            StandardParameters.iterations(),
            WorkloadParameter.integer(SIZE_MIN, KIB, "B",
                    "smallest buffer under size_dist uniform or log-uniform", 1, 1L << 30),
            WorkloadParameter.choice(SIZE_DIST, "how buffer sizes spread between size_min_B and size_B",
                    SizeDistribution.NAMES),
            WorkloadParameter.integer(MESSAGE, 0, "B",
                    "bytes each operation moves, from a random 64-byte-aligned offset of its buffer; 0 for the whole buffer",
                    0, 1L << 30),
            WorkloadParameter.integer(RANKS, 2, "", "processes, one per node", 2, MAX_RANKS),
            WorkloadParameter.choice(PEERS, "whom each rank's operations address", PeerPattern.NAMES),
            WorkloadParameter.decimal(PUT, 1.0, "", "share of operations that are RDMA writes", 0, 1),
            WorkloadParameter.decimal(GET, 0.0, "", "share of operations that are RDMA reads", 0, 1),
            WorkloadParameter.decimal(SEND, 0.0, "", "share of operations that are two-sided sends", 0, 1),
            WorkloadParameter.integer(WORKING_SET, 8, "MiB",
                    "memory each rank's buffers span, used in random order; 0 when reuse_distance sets the buffers",
                    0, 1L << 14),
            WorkloadParameter.integer(REUSE_DISTANCE, 0, "",
                    "if above 0: each rank holds reuse_distance + 1 buffers and uses them in turn, each reused after"
                            + " this many others (working_set_MiB then reads 0)", 0, MAX_BUFFERS - 1),
            WorkloadParameter.decimal(CHURN, 0.0, "",
                    "probability that an operation first frees its buffer and allocates a new one of a fresh size", 0, 1),
            WorkloadParameter.choice(ALLOCATOR, "glibc",
                    "glibc: malloc through the memory hooks; custom: an allocator with its own system calls, unseen by"
                            + " the hooks", List.of("glibc", "custom")),
            // glibc's default M_MMAP_THRESHOLD
            WorkloadParameter.integer(MMAP_THRESHOLD, 128 * KIB, "B",
                    "buffers of at least this size get their own mapping, unmapped again by free (M_MMAP_THRESHOLD)",
                    16, 1L << 30),
            WorkloadParameter.integer(COMPUTE, 0, "ns", "computation between two operations of a rank", 0,
                    1_000_000_000_000L));

    private SyntheticParameters() {
    }
}
