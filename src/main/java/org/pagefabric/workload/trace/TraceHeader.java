package org.pagefabric.workload.trace;

import java.util.List;
import java.util.Map;
import org.pagefabric.hw.os.UserAllocator;

/**
 * The first line of a trace: the job it describes and how its addresses and its records are to
 * be read.
 *
 * @param ranks        ranks of the job
 * @param nodes        nodes the ranks run on (rank {@code i} on node {@code i % nodes})
 * @param segmentBytes bytes of each rank's communication segment
 * @param fileOrder    whether events begin in file order across ranks ({@code "order": "file"}, as
 *                     a recording writes them), or each rank runs its own records in order and
 *                     ranks meet only through communication ({@code "order": "rank"})
 * @param segments     where each rank's segment lay when the trace was taken, or {@code null}:
 *                     then addresses below {@code segmentBytes} are offsets into the segment
 * @param brkStarts    each rank's initial program break when the trace was taken, or {@code null}:
 *                     then the address of a rank's first brk record
 * @param allocator    the allocator malloc and free records go through
 * @param source       what the trace was taken from, for the reader
 * @param mpiCalls     per rank, how many times the recorded program called each MPI function, as the
 *                     recorder's own tally counted them (version 2), or {@code null}: a replay must
 *                     perform exactly these
 */
public record TraceHeader(int ranks, int nodes, long segmentBytes, boolean fileOrder, long[] segments,
        long[] brkStarts, UserAllocator.Config allocator, String source, List<Map<String, Long>> mpiCalls) {
    /** The value of the header's {@code format} field. */
    public static final String FORMAT = "pagefabric-trace";
    /** The newest version this reader and writer speak. */
    public static final int VERSION = 2;
    /** The version of traces without MPI records, which older readers read too. */
    public static final int VERSION_PLAIN = 1;

    /** A header without an MPI tally. */
    public TraceHeader(int ranks, int nodes, long segmentBytes, boolean fileOrder, long[] segments, long[] brkStarts,
            UserAllocator.Config allocator, String source) {
        this(ranks, nodes, segmentBytes, fileOrder, segments, brkStarts, allocator, source, null);
    }
}
