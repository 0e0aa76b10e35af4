package org.pagefabric.workload.trace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The MPI calls a replay performed, per rank and function, against the recorder's own tally in
 * the trace's header: a recorded program's replay must perform exactly the calls the program made.
 * Counting allocates nothing: each record's function is resolved to an index before the replay.
 */
final class MpiCallCount {
    private final List<TraceRecord> records;
    private final List<Map<String, Long>> expected;
    private final List<String> names = new ArrayList<>();
    private final int[] callOf;
    private final long[][] done;
    private long total;

    MpiCallCount(TraceHeader header, List<TraceRecord> records) {
        this.records = records;
        this.expected = header.mpiCalls();
        Map<String, Integer> index = new HashMap<>();
        callOf = new int[records.size()];
        for (int k = 0; k < records.size(); k++) {
            String c = records.get(k).call();
            callOf[k] = c == null ? -1 : index.computeIfAbsent(c, n -> {
                names.add(n);
                return names.size() - 1;
            });
        }
        done = new long[header.ranks()][names.size()];
    }

    /** Record {@code k} was performed. */
    void performed(int k) {
        int c = callOf[k];
        if (c >= 0) {
            TraceRecord r = records.get(k);
            long n = r.mpi() == null ? 1 : r.mpi().count();
            done[r.rank()][c] += n;
            total += n;
        }
    }

    /** MPI calls performed so far, over all ranks. */
    long total() {
        return total;
    }

    /**
     * The first difference between the calls performed and the recorder's tally ("rank 2 performed
     * 89 MPI_Allreduce, the program made 90"), or {@code null} when they agree or the trace has no
     * tally.
     */
    String mismatch() {
        if (expected == null) {
            return null;
        }
        for (int r = 0; r < done.length; r++) {
            TreeSet<String> all = new TreeSet<>(names);
            all.addAll(expected.get(r).keySet());
            for (String n : all) {
                int i = names.indexOf(n);
                long performed = i < 0 ? 0 : done[r][i];
                long made = expected.get(r).getOrDefault(n, 0L);
                if (performed != made) {
                    return "rank " + r + " performed " + performed + " " + n + ", the program made " + made
                            + " (the recorder's tally)";
                }
            }
        }
        return null;
    }
}
