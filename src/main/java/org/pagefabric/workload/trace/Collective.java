package org.pagefabric.workload.trace;

import java.util.Locale;

/**
 * The MPI collectives a recorded trace keeps as one record each, with what their message size
 * ({@code len} of the record) means and how far their buffers reach, so the recorder can tell which
 * memory a collective touches and the replay can expand it.
 */
public enum Collective {
    /** MPI_Barrier: no data. */
    BARRIER(false, false),
    /** MPI_Bcast: {@code len} bytes from the root's buffer into everyone's. */
    BCAST(true, false),
    /** MPI_Reduce: {@code len} bytes from everyone combined at the root. */
    REDUCE(true, false),
    /** MPI_Allreduce: {@code len} bytes from everyone combined at everyone. */
    ALLREDUCE(false, false),
    /** MPI_Scan and MPI_Exscan: {@code len} bytes, member i combining those of members before it. */
    SCAN(false, false),
    /** MPI_Reduce_scatter_block: {@code len} bytes per member in, member-sized blocks out. */
    REDUCE_SCATTER_BLOCK(false, false),
    /** MPI_Reduce_scatter: blocks per member given in {@code blocks}. */
    REDUCE_SCATTER(false, true),
    /** MPI_Allgather: {@code len} bytes from each member to everyone. */
    ALLGATHER(false, false),
    /** MPI_Allgatherv: blocks per member given in {@code blocks}. */
    ALLGATHERV(false, true),
    /** MPI_Gather: {@code len} bytes from each member to the root. */
    GATHER(true, false),
    /** MPI_Gatherv: blocks per member given in {@code blocks}. */
    GATHERV(true, true),
    /** MPI_Scatter: {@code len} bytes from the root to each member. */
    SCATTER(true, false),
    /** MPI_Scatterv: blocks per member given in {@code blocks}. */
    SCATTERV(true, true),
    /** MPI_Alltoall: {@code len} bytes from each member to each member. */
    ALLTOALL(false, false),
    /** MPI_Alltoallv: blocks per member given in {@code blocks}. */
    ALLTOALLV(false, true);

    private final boolean rooted;
    private final boolean varying;

    Collective(boolean rooted, boolean varying) {
        this.rooted = rooted;
        this.varying = varying;
    }

    /** Whether the collective has a root. */
    public boolean rooted() {
        return rooted;
    }

    /** Whether its blocks differ per member (a record then gives {@code blocks}). */
    public boolean varying() {
        return varying;
    }

    /** The name as written in a trace. */
    public String wireName() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The collective called {@code name} in a trace, or {@code null}. */
    public static Collective byWireName(String name) {
        for (Collective c : values()) {
            if (c.wireName().equals(name)) {
                return c;
            }
        }
        return null;
    }

    /** Every name a trace may write, for error messages. */
    public static String wireNames() {
        StringBuilder b = new StringBuilder();
        for (Collective c : values()) {
            b.append(b.isEmpty() ? "" : ", ").append(c.wireName());
        }
        return b.toString();
    }

    /**
     * Bytes of this member's send buffer the collective reads, counted from its start.
     *
     * @param m      the record's {@code len}
     * @param p      members of the communicator
     * @param root   whether this member is the root
     * @param blocks the record's blocks (4 per member: send length, send offset, receive length,
     *               receive offset), or {@code null}
     */
    public long sendExtent(long m, int p, boolean root, long[] blocks) {
        if (blocks != null) {
            return extent(blocks, 0);
        }
        return switch (this) {
            case BARRIER -> 0;
            case REDUCE_SCATTER_BLOCK, ALLTOALL -> m * p;
            case SCATTER -> root ? m * p : 0;
            default -> m;
        };
    }

    /** Bytes of this member's receive buffer the collective writes, counted from its start (see {@link #sendExtent}). */
    public long recvExtent(long m, int p, boolean root, long[] blocks) {
        if (blocks != null) {
            return extent(blocks, 2);
        }
        return switch (this) {
            case BARRIER -> 0;
            case REDUCE -> root ? m : 0;
            case ALLGATHER, ALLTOALL -> m * p;
            case GATHER -> root ? m * p : 0;
            default -> m;
        };
    }

    /**
     * The scratch bytes a replay of this collective may use in a rank's segment: Open MPI's
     * temporary buffers (partial results of a reduction) and a barrier's tokens.
     *
     * @param m      the record's {@code len}
     * @param blocks the record's blocks, or {@code null}
     * @param p      members of the communicator
     */
    public long scratchBytes(long m, long[] blocks, int p) {
        long most = m;
        if (blocks != null) {
            for (int j = 0; j + 3 < blocks.length; j += 4) {
                most = Math.max(most, Math.max(blocks[j], blocks[j + 2]));
            }
        }
        return TOKEN_SPACE + 8L * p + most;
    }

    /** Scratch bytes before a barrier's token slots. */
    static final long TOKEN_SPACE = 64;

    private static long extent(long[] blocks, int at) {
        long end = 0;
        for (int j = 0; j + 3 < blocks.length; j += 4) {
            if (blocks[j + at] > 0) {
                end = Math.max(end, blocks[j + at + 1] + blocks[j + at]);
            }
        }
        return end;
    }
}
