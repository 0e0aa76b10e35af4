package org.pagefabric.workload.trace;

import org.pagefabric.hw.os.Advice;

/**
 * One event of a trace, as read: which rank did what, when. Fields an operation does not use
 * hold 0 (or {@link #NONE} where 0 is a meaningful value).
 *
 * @param file      the file the record came from: the trace, or an strace log it imports (empty when
 *                  recorded)
 * @param line      the line of that file
 * @param atPs      the absolute time the event began, picoseconds, or {@link #NONE} when the
 *                  record gives a gap instead
 * @param gapPs     the time after the rank's previous event ended, picoseconds (0 with {@code atPs})
 * @param rank      the rank that acts
 * @param op        the operation
 * @param addr      the local address (a mapping, a block, a buffer, the new break)
 * @param len       bytes
 * @param newAddr   mremap's new address
 * @param newLen    mremap's new length
 * @param peer      the other rank of a communication
 * @param raddr     the peer's address of a put or get
 * @param durationPs a compute's duration, picoseconds
 * @param hooked    whether a memory call goes through the interception hooks (false: a custom or
 *                  statically linked allocator's own system call)
 * @param advice    madvise's advice
 * @param sendQueue whether a wait reaps the send queue (else the receive queue)
 * @param pinnedBytes bytes pinned over the job when the next event began at record time, or
 *                  {@link #NONE}: what the recording saw, for comparison only
 * @param mpi       what a recorded MPI program's record adds (the call it counts as, a collective, a
 *                  communicator), or {@code null}
 */
public record TraceRecord(String file, int line, long atPs, long gapPs, int rank, TraceOp op, long addr, long len, long newAddr,
        long newLen, int peer, long raddr, long durationPs, boolean hooked, Advice advice, boolean sendQueue,
        long pinnedBytes, MpiFields mpi) {
    /** The value of a field that was not given. */
    public static final long NONE = -1;

    /** A record without MPI fields. */
    public TraceRecord(String file, int line, long atPs, long gapPs, int rank, TraceOp op, long addr, long len,
            long newAddr, long newLen, int peer, long raddr, long durationPs, boolean hooked, Advice advice,
            boolean sendQueue, long pinnedBytes) {
        this(file, line, atPs, gapPs, rank, op, addr, len, newAddr, newLen, peer, raddr, durationPs, hooked, advice,
                sendQueue, pinnedBytes, null);
    }

    /** The MPI call this record counts as, or {@code null}. */
    public String call() {
        return mpi == null ? null : mpi.call();
    }

    /** Whether the record gives an absolute time. */
    public boolean timed() {
        return atPs != NONE;
    }
}
