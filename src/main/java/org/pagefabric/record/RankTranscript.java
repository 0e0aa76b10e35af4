package org.pagefabric.record;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongArrayList;
import org.agrona.collections.LongHashSet;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.workload.trace.Collective;
import org.pagefabric.workload.trace.MpiFields;
import org.pagefabric.workload.trace.TraceOp;
import org.pagefabric.workload.trace.TraceRecord;

/**
 * One rank's log turned into trace records (docs/TRACES.md, "Recording an MPI program"), in two
 * passes over the log, each reading it a line at a time. The first ({@link #survey}) learns what
 * the records need before the line that makes them: the blocks MPI buffers lie in, the ranges
 * outside recorded memory, how each wildcard or cancelled request turned out. The second
 * ({@link #write}) hands the records to a sink as it goes.
 *
 * <ul>
 * <li>Memory calls from MPI_Init's return on: the runtime's start-up is not the program's work.
 * Every mapping change is kept; of the malloc blocks, only those an MPI buffer overlaps while they
 * live (with their frees): no policy sees the others, since registration starts at a buffer MPI
 * names.</li>
 * <li>Every wrapped MPI call is counted by exactly one record, its first, or an {@code mpi}
 * record when it moves nothing on replay (a message to itself or MPI_PROC_NULL, a cancelled
 * request, a probe, a lock); a run of polls that found nothing is one {@code mpi} record with its
 * count and the time the run took.</li>
 * <li>A send carries its tag and communicator; a receive the source and tag its completion
 * reported; a nonblocking one the number of its request, which its wait names.</li>
 * <li>A blocking send returns once its buffer may be reused: the MPI library has copied it (eager)
 * or the receiver has it. The replay's send completes only when the receiver has posted its
 * receive, so waiting at once would deadlock two ranks that both send before they receive; its
 * wait comes after the rank's next receive completes instead (or at MPI_Finalize).</li>
 * <li>Time between two MPI calls is {@code compute}; gaps under a microsecond are carried over
 * to the next.</li>
 * </ul>
 */
final class RankTranscript {
    private static final long MIN_COMPUTE_NS = 1000;
    private static final long UNRESOLVED = -1;
    private static final Map<String, Collective> COLLECTIVES = Map.ofEntries(
            Map.entry("MPI_Barrier", Collective.BARRIER), Map.entry("MPI_Bcast", Collective.BCAST),
            Map.entry("MPI_Reduce", Collective.REDUCE), Map.entry("MPI_Allreduce", Collective.ALLREDUCE),
            Map.entry("MPI_Scan", Collective.SCAN), Map.entry("MPI_Exscan", Collective.SCAN),
            Map.entry("MPI_Reduce_scatter", Collective.REDUCE_SCATTER),
            Map.entry("MPI_Reduce_scatter_block", Collective.REDUCE_SCATTER_BLOCK),
            Map.entry("MPI_Allgather", Collective.ALLGATHER), Map.entry("MPI_Allgatherv", Collective.ALLGATHERV),
            Map.entry("MPI_Gather", Collective.GATHER), Map.entry("MPI_Gatherv", Collective.GATHERV),
            Map.entry("MPI_Scatter", Collective.SCATTER), Map.entry("MPI_Scatterv", Collective.SCATTERV),
            Map.entry("MPI_Alltoall", Collective.ALLTOALL), Map.entry("MPI_Alltoallv", Collective.ALLTOALLV));

    /** Where the records go, one at a time. */
    interface Sink {
        void accept(TraceRecord r) throws IOException;
    }

    /**
     * What the first pass over a rank's log learns for the second. Its size follows what the
     * program kept live and named, not the length of the log: the blocks MPI buffers lay in, the
     * ranges outside recorded memory, and the wildcard or cancelled requests.
     */
    static final class Survey {
        private LongHashSet used;
        /** Per request, how a completion turned out: see {@link #resolution}. */
        private final Long2LongHashMap resolved = new Long2LongHashMap(UNRESOLVED);
        private List<long[]> outside;
        private long scratch;
        private long lowest = Long.MAX_VALUE;

        /** The scratch bytes the rank's collectives may need in its segment. */
        long scratchBytes() {
            return scratch;
        }

        /** The lowest address a record of the rank names, or {@code Long.MAX_VALUE}. */
        long lowestAddress() {
            return lowest;
        }
    }

    /** A nonblocking operation not yet completed: its kind, whether the replay skips it, whether it was posted with a wildcard. */
    private record Pending(boolean send, boolean local, boolean wildcard) {
    }

    private final int rank;
    private final Communicators comms;
    private final int ranks;
    /** The first pass's findings, or {@code null} during the first pass. */
    private final Survey known;
    /** What this pass finds. */
    private final Survey found = new Survey();
    private final Sink sink;
    private final Coverage coverage = new Coverage();
    private final Long2ObjectHashMap<Pending> pending = new Long2ObjectHashMap<>();
    /** Per window key, the puts and gets not yet completed, per target. */
    private final Map<String, int[]> rma = new HashMap<>();
    /** The call of the line being read, for its first record; then {@code null}. */
    private String call;
    /** The call of the line being read, named in a refusal. */
    private String lineCall;
    private int deferredSends;
    private final LongArrayList freedSends = new LongArrayList();
    private final LongArrayList freedReceives = new LongArrayList();
    private long lastEnd = -1;
    private long carryNs;
    private long written;

    private RankTranscript(RankLog log, Communicators comms, int ranks, Survey known, Sink sink) {
        this.rank = log.rank();
        this.comms = comms;
        this.ranks = ranks;
        this.known = known;
        this.sink = sink;
    }

    /** The first pass over {@code log}. */
    static Survey survey(RankLog log, Communicators comms, int ranks) throws IOException, RankLog.Damaged,
            RecordingRefused {
        RankTranscript t = new RankTranscript(log, comms, ranks, null, null);
        t.transcribe(log);
        Survey s = t.found;
        s.used = t.coverage.used();
        s.outside = t.coverage.outsideRanges();
        for (long[] r : s.outside) {
            s.lowest = Math.min(s.lowest, r[0]);
        }
        return s;
    }

    /** The second pass over {@code log}: its records to {@code sink}, first a mapping for each range no record maps; how many. */
    static long write(RankLog log, Communicators comms, int ranks, Survey survey, Sink sink) throws IOException,
            RankLog.Damaged, RecordingRefused {
        RankTranscript t = new RankTranscript(log, comms, ranks, survey, sink);
        for (long[] r : survey.outside) {
            t.emit(t.rec(TraceOp.MMAP, r[0], r[1], 0, 0, false, null));
        }
        t.transcribe(log);
        return t.written;
    }

    private void transcribe(RankLog log) throws IOException, RankLog.Damaged, RecordingRefused {
        boolean started = false;
        try (RankLog.Lines lines = log.lines()) {
            String[] w;
            while ((w = lines.next()) != null) {
                try {
                    switch (w[0]) {
                        case "I" -> {
                            started = true;
                            lastEnd = Long.parseLong(w[1]);
                        }
                        case "Z" -> {
                            flushDeferred(true);
                            return;
                        }
                        case "m", "f", "r", "M", "U", "R" -> {
                            if (started) {
                                memory(w);
                            }
                        }
                        case "H", "T", "B", "Y" -> { }
                        default -> {
                            if (started) {
                                mpi(w);
                            }
                        }
                    }
                } catch (RuntimeException e) {
                    throw new RankLog.Damaged(log.file(), lines.line(), String.join(" ", w));
                }
            }
        }
        flushDeferred(true);
    }

    private void emit(TraceRecord r) throws IOException {
        written++;
        if (known == null) {
            if (r.addr() != 0) {
                found.lowest = Math.min(found.lowest, r.addr());
            }
        } else {
            sink.accept(r);
        }
    }

    // ---- memory

    private void memory(String[] w) throws IOException {
        switch (w[0]) {
            case "m" -> malloc(hex(w[1]), hex(w[2]));
            case "f" -> free(hex(w[1]));
            case "r" -> {
                long old = hex(w[1]);
                long now = hex(w[2]);
                long len = hex(w[3]);
                if (old != 0) {
                    free(old);
                }
                if (now != 0 && len > 0) {
                    malloc(now, len);
                }
            }
            case "M" -> {
                long a = hex(w[1]);
                long len = hex(w[2]);
                coverage.map(a, len);
                emit(rec(TraceOp.MMAP, a, len, 0, 0, true, null));
            }
            case "U" -> {
                long a = hex(w[1]);
                long len = hex(w[2]);
                if (coverage.mapped(a, len)) {
                    coverage.unmap(a, len);
                    emit(rec(TraceOp.MUNMAP, a, len, 0, 0, true, null));
                }
            }
            case "R" -> {
                long old = hex(w[1]);
                long oldLen = hex(w[2]);
                long now = hex(w[3]);
                long newLen = hex(w[4]);
                if (coverage.mapped(old, oldLen)) {
                    coverage.unmap(old, oldLen);
                    coverage.map(now, newLen);
                    emit(new TraceRecord("", 0, TraceRecord.NONE, 0, rank, TraceOp.MREMAP, old, oldLen, now, newLen, 0,
                            0, 0, true, Advice.DONTNEED, false, TraceRecord.NONE));
                }
            }
            default -> throw new IllegalStateException(w[0]);
        }
    }

    private void malloc(long addr, long len) throws IOException {
        if (coverage.isBlock(addr)) {
            free(addr);
        }
        long n = coverage.malloc(addr, Math.max(1, len));
        if (kept(n)) {
            emit(rec(TraceOp.MALLOC, addr, Math.max(1, len), 0, 0, true, null));
        }
    }

    private void free(long addr) throws IOException {
        // a block from before MPI_Init was not recorded, so neither is its free
        long n = coverage.free(addr);
        if (n >= 0 && kept(n)) {
            emit(rec(TraceOp.FREE, addr, 0, 0, 0, true, null));
        }
    }

    /** Whether block {@code n} reaches the trace: on the first pass every block, to learn which. */
    private boolean kept(long n) {
        return known == null || known.used.contains(n);
    }

    // ---- MPI

    private void mpi(String[] w) throws IOException, RecordingRefused {
        long t0 = Long.parseLong(w[1]);
        long t1 = Long.parseLong(w[2]);
        compute(t0);
        lastEnd = t1;
        // '-': a further operation of the call before (MPI_Startall's next request), counted there
        call = w[3].equals("-") ? null : w[3];
        if (call != null) {
            lineCall = call;
        }
        switch (w[0]) {
            case "S" -> send(w);
            case "V" -> receive(w);
            case "X" -> sendReceive(w);
            case "D" -> done(w);
            case "E" -> polls(w, t1 - t0);
            case "Q" -> requestFreed(w);
            case "C" -> collective(w);
            case "K" -> communicator(w);
            case "W" -> window(w);
            case "P" -> oneSided(w);
            case "F" -> synchronise(w);
            default -> { }
        }
        if (call != null) {
            emit(new TraceRecord("", 0, TraceRecord.NONE, 0, rank, TraceOp.MPI, 0, 0, 0, 0, 0, 0, 0, true,
                    Advice.DONTNEED, false, TraceRecord.NONE, MpiFields.call(call)));
            call = null;
        }
    }

    private void compute(long t0) throws IOException {
        long gap = Math.max(0, t0 - lastEnd) + carryNs;
        if (gap >= MIN_COMPUTE_NS) {
            emit(new TraceRecord("", 0, TraceRecord.NONE, 0, rank, TraceOp.COMPUTE, 0, 0, 0, 0, 0, 0, gap * 1000, true,
                    Advice.DONTNEED, false, TraceRecord.NONE));
            carryNs = 0;
        } else {
            carryNs = gap;
        }
    }

    /** Whether a peer is one the replay can talk to: another rank (not itself, not MPI_PROC_NULL). */
    private boolean remote(long peer) {
        return peer >= 0 && peer != rank && peer < ranks;
    }

    private void send(String[] w) throws IOException, RecordingRefused {
        long req = Long.parseLong(w[4]);
        int comm = Integer.parseInt(w[5]);
        long addr = hex(w[6]);
        long len = hex(w[7]);
        int peer = Integer.parseInt(w[8]);
        int tag = Integer.parseInt(w[9]);
        boolean local = !remote(peer) || wasCancelled(req);
        if (!local) {
            coverage.use(addr, len);
            emit(pointToPoint(TraceOp.SEND, addr, len, peer, comm, tag, req));
        }
        if (req == 0) {
            if (!local) {
                deferredSends++;
            }
        } else {
            pending.put(req, new Pending(true, local, false));
        }
    }

    private void receive(String[] w) throws IOException, RecordingRefused {
        long req = Long.parseLong(w[4]);
        int comm = Integer.parseInt(w[5]);
        long addr = hex(w[6]);
        long len = hex(w[7]);
        int peer = Integer.parseInt(w[8]);
        int tag = Integer.parseInt(w[9]);
        boolean wildcard = peer == -2 || tag < 0;
        boolean cancelled = false;
        long r = req == 0 || known == null ? UNRESOLVED : known.resolved.get(req);
        if (r != UNRESOLVED) {
            peer = source(r);
            tag = tag(r);
            cancelled = cancelled(r);
        }
        // on the first pass a receive from any source is taken as remote, so its buffer counts as used;
        // one that never completed keeps its wildcard and is not replayed
        boolean local = cancelled || !remote(peer) && !(known == null && peer == -2);
        if (!local) {
            coverage.use(addr, len);
            emit(pointToPoint(TraceOp.RECV, addr, len, Math.max(peer, 0), comm, Math.max(tag, 0), req));
        }
        if (req == 0) {
            if (!local) {
                waitReceive();
            }
        } else {
            pending.put(req, new Pending(false, local, wildcard));
        }
    }

    private void sendReceive(String[] w) throws IOException, RecordingRefused {
        int comm = Integer.parseInt(w[4]);
        long saddr = hex(w[5]);
        long slen = hex(w[6]);
        int dest = Integer.parseInt(w[7]);
        int stag = Integer.parseInt(w[8]);
        long raddr = hex(w[9]);
        long rlen = hex(w[10]);
        int src = Integer.parseInt(w[11]);
        int rtag = Integer.parseInt(w[12]);
        if (remote(dest)) {
            coverage.use(saddr, slen);
            emit(pointToPoint(TraceOp.SEND, saddr, slen, dest, comm, stag, 0));
            deferredSends++;
        }
        if (remote(src)) {
            coverage.use(raddr, rlen);
            emit(pointToPoint(TraceOp.RECV, raddr, rlen, src, comm, Math.max(rtag, 0), 0));
            waitReceive();
        } else {
            flushDeferred(false);
        }
    }

    private void done(String[] w) throws IOException {
        int n = Integer.parseInt(w[4]);
        boolean received = false;
        for (int i = 0; i < n; i++) {
            long seq = Long.parseLong(w[5 + 4 * i]);
            int src = Integer.parseInt(w[6 + 4 * i]);
            int tag = Integer.parseInt(w[7 + 4 * i]);
            boolean cancelled = w[8 + 4 * i].equals("1");
            Pending p = pending.remove(seq);
            if (p == null) {
                continue;
            }
            if (known == null && (cancelled || !p.send() && p.wildcard())) {
                found.resolved.put(seq, resolution(src, tag, cancelled));
            }
            if (p.local()) {
                // its wait moves nothing: an mpi record counts the call unless another record does
                continue;
            }
            emit(waitRecord(p.send(), seq));
            received |= !p.send();
        }
        if (received) {
            flushDeferred(false);
        }
    }

    private void polls(String[] w, long ns) throws IOException {
        long n = Long.parseLong(w[4]);
        emit(new TraceRecord("", 0, TraceRecord.NONE, 0, rank, TraceOp.MPI, 0, 0, 0, 0, 0, 0, ns * 1000, true,
                Advice.DONTNEED, false, TraceRecord.NONE, MpiFields.repeated(takeCall(), n)));
    }

    private void requestFreed(String[] w) {
        long seq = Long.parseLong(w[4]);
        Pending p = pending.remove(seq);
        if (p != null && !p.local()) {
            if (p.send()) {
                freedSends.addLong(seq);
            } else {
                freedReceives.addLong(seq);
            }
        }
    }

    private void collective(String[] w) throws IOException, RecordingRefused {
        Collective c = COLLECTIVES.get(call);
        int comm = comms.trace(rank, Integer.parseInt(w[4]));
        int[] members = comm < 0 ? null : comm == 1 ? new int[] {rank} : comms.members(comm);
        if (c == null) {
            return;
        }
        if (members == null) {
            throw outOfSight();
        }
        int root = Integer.parseInt(w[5]);
        long saddr = hex(w[6]);
        long raddr = hex(w[7]);
        long m = hex(w[8]);
        int n = Integer.parseInt(w[9]);
        long[] blocks = null;
        if (n > 0) {
            blocks = new long[4 * n];
            for (int i = 0; i < blocks.length; i++) {
                blocks[i] = hex(w[10 + i]);
            }
        }
        int me = 0;
        while (me < members.length && members[me] != rank) {
            me++;
        }
        boolean isRoot = me == root;
        coverage.use(saddr != 0 ? saddr : raddr, c.sendExtent(m, members.length, isRoot, blocks));
        coverage.use(raddr, c.recvExtent(m, members.length, isRoot, blocks));
        TraceRecord r = new TraceRecord("", 0, TraceRecord.NONE, 0, rank, TraceOp.COLLECTIVE, saddr, m, 0, 0, 0, 0, 0,
                true, Advice.DONTNEED, false, TraceRecord.NONE, new MpiFields(takeCall(), c, comm, c.rooted() ? root : 0,
                raddr, blocks, null));
        found.scratch = Math.max(found.scratch, c.scratchBytes(m, blocks, members.length));
        emit(r);
    }

    private void communicator(String[] w) throws IOException {
        int id = comms.trace(rank, Integer.parseInt(w[5]));
        if (id < 2) {
            return;
        }
        emit(new TraceRecord("", 0, TraceRecord.NONE, 0, rank, TraceOp.COMM, 0, 0, 0, 0, 0, 0, 0, true,
                Advice.DONTNEED, false, TraceRecord.NONE, new MpiFields(takeCall(), null, id, 0, 0, null,
                comms.members(id))));
    }

    private void window(String[] w) {
        coverage.use(hex(w[6]), hex(w[7]));
    }

    private void oneSided(String[] w) throws IOException {
        int win = Integer.parseInt(w[4]);
        boolean get = w[5].equals("g");
        long addr = hex(w[6]);
        long len = hex(w[7]);
        int target = Integer.parseInt(w[8]);
        long disp = hex(w[9]);
        Communicators.Window tw = remote(target) ? comms.window(rank, win, target) : null;
        if (tw == null || len == 0) {
            return;
        }
        coverage.use(addr, len);
        emit(rec(get ? TraceOp.GET : TraceOp.PUT, addr, len, target, tw.base() + disp * tw.unit(), true,
                callOnce()));
        rma.computeIfAbsent(comms.windowKey(rank, win), k -> new int[ranks])[target]++;
    }

    private void synchronise(String[] w) throws IOException {
        int target = Integer.parseInt(w[5]);
        int win = Integer.parseInt(w[4]);
        String key = comms.windowKey(rank, win);
        int[] open = key == null ? null : rma.get(key);
        if (open != null && target != -2) {
            for (int t = 0; t < open.length; t++) {
                if (target == -1 || target == t) {
                    for (; open[t] > 0; open[t]--) {
                        emit(waitRecord(true, MpiFields.NO_REQUEST));
                    }
                }
            }
        }
        if (call != null && (call.equals("MPI_Win_fence") || call.equals("MPI_Win_free"))) {
            // both are collective: no rank goes on (reads what was put, frees its window) before all are there
            int comm = comms.windowComm(rank, win);
            int[] members = comm < 0 ? null : comm == 1 ? new int[] {rank} : comms.members(comm);
            if (members != null && members.length > 1) {
                emit(new TraceRecord("", 0, TraceRecord.NONE, 0, rank, TraceOp.COLLECTIVE, 0, 0, 0, 0, 0, 0, 0, true,
                        Advice.DONTNEED, false, TraceRecord.NONE, new MpiFields(takeCall(), Collective.BARRIER, comm, 0,
                        0, null, null)));
                found.scratch = Math.max(found.scratch, Collective.BARRIER.scratchBytes(0, null, members.length));
            }
        }
    }

    // ---- requests

    /** Whether the first pass saw request {@code req} cancelled. */
    private boolean wasCancelled(long req) {
        long r = req == 0 || known == null ? UNRESOLVED : known.resolved.get(req);
        return r != UNRESOLVED && cancelled(r);
    }

    /** A completion's source (-1 for none: MPI_PROC_NULL), tag and cancellation in one number. */
    private static long resolution(int src, int tag, boolean cancelled) {
        return (long) (Math.max(src, -1) + 1) << 33 | (cancelled ? 1L << 32 : 0) | (tag & 0xFFFFFFFFL);
    }

    private static int source(long r) {
        return (int) (r >>> 33) - 1;
    }

    private static int tag(long r) {
        return (int) r;
    }

    private static boolean cancelled(long r) {
        return (r & 1L << 32) != 0;
    }

    // ---- waits

    private void waitReceive() throws IOException {
        emit(waitRecord(false, MpiFields.NO_REQUEST));
        flushDeferred(false);
    }

    /** The waits of blocking sends (and, at the end, of freed requests) that completed without one. */
    private void flushDeferred(boolean end) throws IOException {
        for (; deferredSends > 0; deferredSends--) {
            emit(waitRecord(true, MpiFields.NO_REQUEST));
        }
        for (int i = 0; i < freedSends.size(); i++) {
            emit(waitRecord(true, freedSends.getLong(i)));
        }
        freedSends.clear();
        if (end) {
            for (int i = 0; i < freedReceives.size(); i++) {
                emit(waitRecord(false, freedReceives.getLong(i)));
            }
            freedReceives.clear();
            for (int[] open : rma.values()) {
                for (int t = 0; t < open.length; t++) {
                    for (; open[t] > 0; open[t]--) {
                        emit(waitRecord(true, MpiFields.NO_REQUEST));
                    }
                }
            }
        }
    }

    private TraceRecord waitRecord(boolean send, long req) {
        String c = takeCall();
        MpiFields m = c == null && req == MpiFields.NO_REQUEST ? null
                : new MpiFields(c, null, 0, 0, 0, null, null, 0, req, 1);
        return new TraceRecord("", 0, TraceRecord.NONE, 0, rank, TraceOp.WAIT, 0, 0, 0, 0, 0, 0, 0, true,
                Advice.DONTNEED, send, TraceRecord.NONE, m);
    }

    /** A send or receive: a message of no bytes names no buffer. */
    private TraceRecord pointToPoint(TraceOp op, long addr, long len, int peer, int comm, int tag, long req)
            throws RecordingRefused {
        int id = comms.trace(rank, comm);
        if (id < 0) {
            throw outOfSight();
        }
        return rec(op, len == 0 ? 0 : addr, len, peer, 0, true, MpiFields.pointToPoint(takeCall(), id, tag, req));
    }

    /** The refusal of a call on a communicator no log line made: ranks would not agree on its id. */
    private RecordingRefused outOfSight() {
        return new RecordingRefused("rank " + rank + " called " + lineCall + " on a communicator made by a call the"
                + " recorder does not follow (such as MPI_Comm_create_group or MPI_Intercomm_merge); no trace written");
    }

    /** The current call's fields for its first record, then {@code null}. */
    private MpiFields callOnce() {
        String c = takeCall();
        return c == null ? null : MpiFields.call(c);
    }

    /** The current call's name for its first record, then {@code null}. */
    private String takeCall() {
        String c = call;
        call = null;
        return c;
    }

    private TraceRecord rec(TraceOp op, long addr, long len, int peer, long raddr, boolean hooked, MpiFields mpi) {
        return new TraceRecord("", 0, TraceRecord.NONE, 0, rank, op, addr, len, 0, 0, peer, raddr, 0, hooked,
                Advice.DONTNEED, false, TraceRecord.NONE, mpi);
    }

    private static long hex(String s) {
        return Long.parseUnsignedLong(s, 16);
    }
}
