package org.pagefabric.workload.trace;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.pagefabric.comm.Job;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.stat.LatencyHistogram;
import org.pagefabric.workload.AbstractWorkload;
import org.pagefabric.workload.Params;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.WorkloadDescriptor;
import org.pagefabric.workload.WorkloadParameter;

/**
 * Replays a trace (docs/TRACES.md) under any policy on any profile: the job has the trace's
 * ranks and nodes, and the policy must carry the operations the trace contains.
 */
public final class TraceWorkload extends AbstractWorkload {
    /** The parameter naming the trace file. */
    public static final String TRACE = "trace";
    /** Column of the operations whose destination did not hold their source's bytes. */
    public static final String CORRUPTED = "corrupted";
    /** Column of the records replayed. */
    public static final String RECORDS = "records";
    /** Column of the completions reaped. */
    public static final String COMPLETIONS = "completions";
    /** Column of the highest pinned-memory sample. */
    public static final String PINNED_PEAK = "pinned_peak_MiB";
    /** Column of the MPI calls of a recorded program the replay performed. */
    public static final String MPI_CALLS = "mpi_calls";

    /** The parameter giving the largest message sent eagerly. */
    public static final String EAGER_LIMIT = "eager_limit";

    /**
     * Open MPI's openib transport sends up to 12 KiB eagerly (its btl_openib_eager_limit, 12288);
     * an assumption: the MPI a program ran with may set another limit, which --set changes.
     */
    private static final long DEFAULT_EAGER_LIMIT = 12 * 1024;

    private static final List<WorkloadParameter> PARAMETERS = List.of(WorkloadParameter.file(TRACE,
            "the trace to replay: JSON Lines, a header then one event a line (docs/TRACES.md)"),
            WorkloadParameter.integer(EAGER_LIMIT, DEFAULT_EAGER_LIMIT, "B", "the largest message sent eagerly (copied"
                    + " through the runtime's buffers, complete without a posted receive); larger ones take a"
                    + " rendezvous (RTS, CTS, an RDMA write of the user's buffer, FIN)", 0, 1L << 20));
    private static final List<String> METRICS;

    static {
        METRICS = PointRun.metricsAfterVerified(List.of(CORRUPTED, RECORDS, COMPLETIONS, PINNED_PEAK, MPI_CALLS));
    }

    /** Traces read, by path, with the modification time they were read at. */
    private static final Map<Path, Read> READ = new ConcurrentHashMap<>();

    private record Read(FileTime modified, long size, Trace trace) {
    }

    /** The workload with its declared parameter. */
    public TraceWorkload() {
        super(WorkloadDescriptor.of("trace", "replays a trace of memory calls and communication (docs/TRACES.md),"
                + " verifying every byte moved")
                // ranks and nodes of a trace's job are in its header; two without one
                .ranks(2).ranks(p -> trace(p).header().ranks()).nodes(p -> trace(p).header().nodes())
                .parameters(PARAMETERS).lowerIsBetter("latency_us").metrics(METRICS)
                .segment(p -> TraceReplay.segmentBytes(trace(p), p.longValue(EAGER_LIMIT)))
                // reading the trace when values are resolved refuses a bad record before anything runs
                .check(TraceWorkload::trace)
                .requires(TraceWorkload::requires).build());
    }

    /** Reads the trace as soon as it is named, so a bad record is refused before anything runs. */
    @Override
    public Object coerce(WorkloadParameter p, Object value) {
        Object v = descriptor().coerce(p, value);
        if (p.name().equals(TRACE)) {
            load((String) v);
        }
        return v;
    }

    /** The capabilities the trace's operations need. */
    private static Set<Capability> requires(Params params) {
        Set<TraceOp> ops = trace(params).ops();
        Set<Capability> caps = EnumSet.noneOf(Capability.class);
        if (ops.contains(TraceOp.PUT)) {
            caps.add(Capability.PUT);
        }
        if (ops.contains(TraceOp.GET)) {
            caps.add(Capability.GET);
        }
        if (ops.contains(TraceOp.SEND) || ops.contains(TraceOp.RECV) || ops.contains(TraceOp.COLLECTIVE)) {
            // a recorded program's rendezvous writes the sender's buffer into the receiver's, except
            // over a messaging stack of the policy's own, which carries it (Open-MX): both offer this
            caps.add(Capability.SEND_RECEIVE);
        }
        // madvise(DONTNEED) takes pages away under the application; later operations meet them absent
        if (ops.contains(TraceOp.MADVISE)) {
            caps.add(Capability.PAGED_OUT_MEMORY);
        }
        return caps;
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        TraceReplay replay = new TraceReplay(trace(params), job, latencies, params.longValue(EAGER_LIMIT));
        replay.start();
        return replay;
    }

    private static Trace trace(Params params) {
        return load(params.file(TRACE));
    }

    /**
     * The trace at {@code file}, read once per modification.
     *
     * @throws TraceFormatException naming file, line and field of a bad record
     */
    public static Trace load(String file) {
        if (file == null || file.isEmpty()) {
            throw new IllegalArgumentException("trace: name the trace to replay, e.g. --set trace=docs/examples/"
                    + "halo.trace.jsonl (docs/TRACES.md)");
        }
        Path path = Path.of(file).toAbsolutePath().normalize();
        try {
            FileTime modified = Files.getLastModifiedTime(path);
            long size = Files.size(path);
            Read r = READ.get(path);
            if (r != null && r.modified().equals(modified) && r.size() == size) {
                return r.trace();
            }
            Trace t = Trace.read(Path.of(file));
            READ.put(path, new Read(modified, size, t));
            return t;
        } catch (java.io.IOException e) {
            throw new TraceFormatException(file, 0, null, "no such file or not readable");
        }
    }
}
