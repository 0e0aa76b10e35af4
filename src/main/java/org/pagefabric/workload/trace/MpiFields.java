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
 */
public record MpiFields(String call, Collective coll, int comm, int root, long recvAddr, long[] blocks,
        int[] members) {
    /** Only the call a record counts as. */
    public static MpiFields call(String call) {
        return new MpiFields(call, null, 0, 0, 0, null, null);
    }
}
