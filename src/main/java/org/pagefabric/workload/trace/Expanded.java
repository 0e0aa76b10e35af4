package org.pagefabric.workload.trace;

import java.util.ArrayList;
import java.util.List;
import org.agrona.collections.Int2ObjectHashMap;
import org.pagefabric.sim.SimulationException;

/**
 * A trace's records with every collective followed by the point-to-point records it expands to
 * (each rank's own share of the algorithm), and the order in which each rank runs them. The
 * communicators a collective names come from the trace's {@code comm} records; 0 is every rank
 * and 1 the rank alone.
 */
final class Expanded {
    private final List<TraceRecord> records = new ArrayList<>();
    private final int[][] order;

    Expanded(Trace trace) {
        int ranks = trace.header().ranks();
        long segment = trace.header().segmentBytes();
        Int2ObjectHashMap<int[]> comms = new Int2ObjectHashMap<>();
        int[] world = new int[ranks];
        for (int r = 0; r < ranks; r++) {
            world[r] = r;
        }
        comms.put(0, world);
        List<List<Integer>> mine = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            mine.add(new ArrayList<>());
        }
        for (TraceRecord rec : trace.records()) {
            int k = records.size();
            records.add(rec);
            mine.get(rec.rank()).add(k);
            if (rec.op() == TraceOp.COMM) {
                int[] m = rec.mpi().members();
                int[] known = comms.get(rec.mpi().comm());
                if (known != null && !java.util.Arrays.equals(known, m)) {
                    throw refused(trace, rec, "communicator " + rec.mpi().comm() + " was created before with other"
                            + " members");
                }
                comms.put(rec.mpi().comm(), m);
            } else if (rec.op() == TraceOp.COLLECTIVE) {
                if (trace.header().fileOrder()) {
                    // a member's steps wait on the others', which file order would hold back behind it
                    throw refused(trace, rec, "a collective needs \"order\": \"rank\" (each rank's steps wait on"
                            + " the other members')");
                }
                int id = rec.mpi().comm();
                int[] members = id == 1 ? new int[] {rec.rank()} : comms.get(id);
                if (members == null) {
                    throw refused(trace, rec, "communicator " + id + " has no comm record before it");
                }
                int me = indexOf(members, rec.rank());
                if (me < 0) {
                    throw refused(trace, rec, "rank " + rec.rank() + " is not a member of communicator " + id);
                }
                if (rec.mpi().coll().rooted() && rec.mpi().root() >= members.length) {
                    throw refused(trace, rec, "root " + rec.mpi().root() + " is not a rank of communicator " + id
                            + " (" + members.length + " members)");
                }
                if (rec.mpi().blocks() != null && rec.mpi().blocks().length != 4 * members.length) {
                    throw refused(trace, rec, "blocks gives " + rec.mpi().blocks().length / 4 + " members, communicator "
                            + id + " has " + members.length);
                }
                long need = CollectiveExpansion.scratchBytes(rec, members.length);
                if (need > segment) {
                    throw refused(trace, rec, "its algorithm needs " + need + " bytes of scratch space in the segment;"
                            + " the header gives segment_bytes " + segment);
                }
                long scratch = trace.header().segments() == null ? 0 : trace.header().segments()[rec.rank()];
                for (TraceRecord step : CollectiveExpansion.expand(rec, members, me, scratch)) {
                    mine.get(rec.rank()).add(records.size());
                    records.add(step);
                }
            }
        }
        order = new int[ranks][];
        for (int r = 0; r < ranks; r++) {
            order[r] = mine.get(r).stream().mapToInt(Integer::intValue).toArray();
        }
    }

    /** Every record, the expansions included; a record's index is its work request id on replay. */
    List<TraceRecord> records() {
        return records;
    }

    /** The indices of rank {@code r}'s records, in the order it runs them. */
    int[] order(int r) {
        return order[r];
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == v) {
                return i;
            }
        }
        return -1;
    }

    private static SimulationException refused(Trace trace, TraceRecord rec, String problem) {
        String where = rec.file().isEmpty() ? trace.file() : rec.file() + ":" + rec.line();
        return new SimulationException(where + ": " + rec.op().wireName() + ": " + problem);
    }
}
