package org.pagefabric.record;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.pagefabric.hw.os.UserAllocator;
import org.pagefabric.workload.trace.TraceHeader;
import org.pagefabric.workload.trace.TraceRecord;

/**
 * The interposer's per-process logs of one job merged into one trace: the ranks' records in rank
 * order ({@code "order": "rank"}), one rank per node, each rank's segment large enough for its
 * collectives' scratch space, and the interposer's tally in the header.
 */
public final class TraceAssembly {
    private static final long PAGE = 4096;
    private static final long KIB = 1024;

    private TraceAssembly() {
    }

    /** An assembled trace. */
    public record Assembled(TraceHeader header, List<TraceRecord> records) {
    }

    /**
     * Merges the logs of every rank of one job.
     *
     * @param logs   one per rank, in rank order, each finished
     * @param source what the trace was taken from (the command line), for the reader
     */
    static Assembled assemble(List<RankLog> logs, String source) {
        int ranks = logs.size();
        Communicators comms = new Communicators(logs);
        List<TraceRecord> records = new ArrayList<>();
        List<Map<String, Long>> tally = new ArrayList<>();
        long scratch = PAGE;
        long lowest = Long.MAX_VALUE;
        for (RankLog log : logs) {
            RankTranscript t = RankTranscript.of(log, comms, ranks);
            List<TraceRecord> mine = t.records();
            for (TraceRecord r : mine) {
                if (r.addr() != 0) {
                    lowest = Math.min(lowest, r.addr());
                }
            }
            records.addAll(mine);
            scratch = Math.max(scratch, t.scratchBytes());
            tally.add(log.tally());
        }
        long segment = (scratch + PAGE - 1) & -PAGE;
        // scratch lies at trace addresses below segment_bytes unless the program used them itself
        long[] segments = null;
        if (lowest < segment) {
            segments = new long[ranks];
            java.util.Arrays.fill(segments, 1L << 46);
        }
        UserAllocator.Config glibc = new UserAllocator.Config(128 * KIB, true, 128 * KIB, 128 * KIB, false,
                UserAllocator.Linkage.DYNAMIC);
        TraceHeader h = new TraceHeader(ranks, ranks, segment, false, segments, null, glibc, source, tally);
        return new Assembled(h, records);
    }
}
