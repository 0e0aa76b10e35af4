package org.pagefabric.record;

import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.pagefabric.hw.os.UserAllocator;
import org.pagefabric.workload.trace.TraceHeader;
import org.pagefabric.workload.trace.TraceRecord;
import org.pagefabric.workload.trace.TraceWriter;

/**
 * The interposer's per-process logs of one job merged into one trace: the ranks' records in rank
 * order ({@code "order": "rank"}), one rank per node, each rank's segment large enough for its
 * collectives' scratch space, and the interposer's tally in the header. Each log is read twice, a
 * line at a time (see {@link RankTranscript}), and the records are written as they are made, so the
 * merge holds neither a log nor the trace.
 */
public final class TraceAssembly {
    private static final long PAGE = 4096;
    private static final long KIB = 1024;

    private TraceAssembly() {
    }

    /** An assembled trace, held whole: for logs known to be small. */
    public record Assembled(TraceHeader header, List<TraceRecord> records) {
    }

    /**
     * Merges the logs of every rank of one job into {@code out}.
     *
     * @param logs   one per rank, in rank order, each finished
     * @param source what the trace was taken from (the command line), for the reader
     * @return the records written
     * @throws RankLog.Damaged  for a log line that is not what the interposer writes
     * @throws RecordingRefused for a program the trace cannot describe
     */
    static long write(List<RankLog> logs, String source, Writer out) throws IOException, RankLog.Damaged,
            RecordingRefused {
        int ranks = logs.size();
        Communicators comms = new Communicators(logs);
        List<RankTranscript.Survey> surveys = new ArrayList<>();
        for (RankLog log : logs) {
            surveys.add(RankTranscript.survey(log, comms, ranks));
        }
        TraceWriter.writeHeader(out, header(logs, surveys, source));
        long written = 0;
        for (int r = 0; r < ranks; r++) {
            written += RankTranscript.write(logs.get(r), comms, ranks, surveys.get(r), rec -> TraceWriter.writeRecord(out,
                    rec));
        }
        out.flush();
        return written;
    }

    /** Merges the logs of every rank of one job, in memory. */
    static Assembled assemble(List<RankLog> logs, String source) throws IOException, RankLog.Damaged,
            RecordingRefused {
        int ranks = logs.size();
        Communicators comms = new Communicators(logs);
        List<RankTranscript.Survey> surveys = new ArrayList<>();
        for (RankLog log : logs) {
            surveys.add(RankTranscript.survey(log, comms, ranks));
        }
        List<TraceRecord> records = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            RankTranscript.write(logs.get(r), comms, ranks, surveys.get(r), records::add);
        }
        return new Assembled(header(logs, surveys, source), records);
    }

    private static TraceHeader header(List<RankLog> logs, List<RankTranscript.Survey> surveys, String source) {
        int ranks = logs.size();
        long scratch = PAGE;
        long lowest = Long.MAX_VALUE;
        List<Map<String, Long>> tally = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            scratch = Math.max(scratch, surveys.get(r).scratchBytes());
            lowest = Math.min(lowest, surveys.get(r).lowestAddress());
            tally.add(logs.get(r).tally());
        }
        long segment = (scratch + PAGE - 1) & -PAGE;
        // scratch lies at trace addresses below segment_bytes unless the program used them itself
        long[] segments = null;
        if (lowest < segment) {
            segments = new long[ranks];
            Arrays.fill(segments, 1L << 46);
        }
        UserAllocator.Config glibc = new UserAllocator.Config(128 * KIB, true, 128 * KIB, 128 * KIB, false,
                UserAllocator.Linkage.DYNAMIC);
        return new TraceHeader(ranks, ranks, segment, false, segments, null, glibc, source, tally);
    }
}
