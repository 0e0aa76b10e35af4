package org.pagefabric.workload.trace;

/**
 * What a record of a recorded MPI program carries besides the fields every record has (trace
 * version 2).
 *
 * @param call     the MPI function this record counts as (each call of the program is counted by
 *                 exactly one record), or {@code null} for the further records of one call
 * @param coll     a collective's kind, or {@code null}
 * @param comm     a collective's or a created communicator's id (0 is MPI_COMM_WORLD)
 * @param root     a rooted collective's root, as a rank of its communicator
 * @param recvAddr a collective's receive buffer (its send buffer is the record's {@code addr}; 0
 *                 when the member has none)
 * @param blocks   per member of a varying collective: send length, send offset, receive length,
 *                 receive offset (bytes); otherwise {@code null}
 * @param members  a created communicator's world ranks in communicator rank order, or {@code null}
 * @param tag      a send's tag, or the tag a receive's status reported (wildcards resolved); 0 when
 *                 not given
 * @param request  the rank's id of the nonblocking request a send or receive starts, or the one a
 *                 wait completes; {@link #NO_REQUEST} for a blocking call or a wait on the next
 *                 completion of its queue
 * @param count    how many calls of {@code call} the record stands for: polls that found nothing
 *                 ({@code MPI_Test}, {@code MPI_Iprobe}) are one record with their count
 */
public record MpiFields(String call, Collective coll, int comm, int root, long recvAddr, long[] blocks,
        int[] members, int tag, long request, long count) {
    /** What {@link #request} holds when the record names no request. */
    public static final long NO_REQUEST = 0;

    /** A collective's or a communicator's fields, with no tag, request or repetition. */
    public MpiFields(String call, Collective coll, int comm, int root, long recvAddr, long[] blocks, int[] members) {
        this(call, coll, comm, root, recvAddr, blocks, members, 0, NO_REQUEST, 1);
    }

    /** Only the call a record counts as. */
    public static MpiFields call(String call) {
        return new MpiFields(call, null, 0, 0, 0, null, null);
    }

    /** A point-to-point record's envelope (tag and communicator) and request, counting as {@code call}. */
    public static MpiFields pointToPoint(String call, int comm, int tag, long request) {
        return new MpiFields(call, null, comm, 0, 0, null, null, tag, request, 1);
    }

    /** {@code count} calls of {@code call} that moved nothing, as one record. */
    public static MpiFields repeated(String call, long count) {
        return new MpiFields(call, null, 0, 0, 0, null, null, 0, NO_REQUEST, count);
    }

    /** Whether the record names a request. */
    public boolean hasRequest() {
        return request != NO_REQUEST;
    }
}
