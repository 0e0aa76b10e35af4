package org.pagefabric.record;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.workload.trace.Collective;
import org.pagefabric.workload.trace.MpiFields;
import org.pagefabric.workload.trace.TraceOp;
import org.pagefabric.workload.trace.TraceRecord;

/**
 * One rank's log turned into trace records (docs/TRACES.md, "Recording an MPI program").
 *
 * <ul>
 * <li>Memory calls from MPI_Init's return on: the runtime's start-up is not the program's work.</li>
 * <li>Every wrapped MPI call is counted by exactly one record, its first, or an {@code mpi}
 * record when it moves nothing on replay (a message to itself or MPI_PROC_NULL, a test that found
 * nothing finished, a lock).</li>
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

    /** A nonblocking operation not yet completed: its kind and, for a receive, its record. */
    private record Pending(boolean send, int record, boolean local) {
    }

    private final int rank;
    private final Communicators comms;
    private final List<TraceRecord> out = new ArrayList<>();
    private final Coverage coverage = new Coverage();
    private final Map<Long, Pending> pending = new HashMap<>();
    /** Per window key, the puts and gets not yet completed, per target. */
    private final Map<String, int[]> rma = new HashMap<>();
    private final int ranks;
    private String call;
    private int deferredSends;
    private int deferredReceives;
    private long lastEnd = -1;
    private long carryNs;
    private long scratch;

    private RankTranscript(RankLog log, Communicators comms, int ranks) {
        this.rank = log.rank();
        this.comms = comms;
        this.ranks = ranks;
    }

    /** The records of {@code log}'s rank and the scratch bytes its collectives need. */
    static RankTranscript of(RankLog log, Communicators comms, int ranks) {
        RankTranscript t = new RankTranscript(log, comms, ranks);
        t.transcribe(log);
        return t;
    }

    /** The rank's records: first a mapping for each range it communicated from that no record maps. */
    List<TraceRecord> records() {
        List<TraceRecord> all = new ArrayList<>();
        for (long[] r : coverage.outsideRanges()) {
            all.add(rec(TraceOp.MMAP, r[0], r[1], 0, 0, false, null));
        }
        for (TraceRecord r : out) {
            // null: a receive that turned out to be the rank's own message to itself
            if (r != null) {
                all.add(r);
            }
        }
        return all;
    }

    /** The scratch bytes the rank's collectives may need in its segment. */
    long scratchBytes() {
        return scratch;
    }

    private void transcribe(RankLog log) {
        boolean started = false;
        for (String[] w : log.lines()) {
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
                case "H", "T", "B" -> { }
                default -> {
                    if (started) {
                        mpi(w);
                    }
                }
            }
        }
        flushDeferred(true);
    }

    // ---- memory

    private void memory(String[] w) {
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
                out.add(rec(TraceOp.MMAP, a, len, 0, 0, true, null));
            }
            case "U" -> {
                long a = hex(w[1]);
                long len = hex(w[2]);
                if (coverage.mapped(a, len)) {
                    coverage.unmap(a, len);
                    out.add(rec(TraceOp.MUNMAP, a, len, 0, 0, true, null));
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
                    out.add(new TraceRecord("", 0, TraceRecord.NONE, 0, rank, TraceOp.MREMAP, old, oldLen, now, newLen, 0,
                            0, 0, true, Advice.DONTNEED, false, TraceRecord.NONE));
                }
            }
            default -> throw new IllegalStateException(w[0]);
        }
    }

    private void malloc(long addr, long len) {
        if (coverage.isBlock(addr)) {
            free(addr);
        }
        coverage.malloc(addr, Math.max(1, len));
        out.add(rec(TraceOp.MALLOC, addr, Math.max(1, len), 0, 0, true, null));
    }

    private void free(long addr) {
        // a block from before MPI_Init was not recorded, so neither is its free
        if (coverage.isBlock(addr)) {
            coverage.free(addr);
            out.add(rec(TraceOp.FREE, addr, 0, 0, 0, true, null));
        }
    }

    // ---- MPI

    private void mpi(String[] w) {
        long t0 = Long.parseLong(w[1]);
        long t1 = Long.parseLong(w[2]);
        compute(t0);
        lastEnd = t1;
        // '-': a further operation of the call before (MPI_Startall's next request), counted there
        call = w[3].equals("-") ? null : w[3];
        switch (w[0]) {
            case "S" -> send(w);
            case "V" -> receive(w);
            case "X" -> sendReceive(w);
            case "D" -> done(w);
            case "Q" -> requestFreed(w);
            case "C" -> collective(w);
            case "K" -> communicator(w);
            case "W" -> window(w);
            case "P" -> oneSided(w);
            case "F" -> synchronise(w);
            default -> { }
        }
        if (call != null) {
            out.add(new TraceRecord("", 0, TraceRecord.NONE, 0, rank, TraceOp.MPI, 0, 0, 0, 0, 0, 0, 0, true,
                    Advice.DONTNEED, false, TraceRecord.NONE, MpiFields.call(call)));
            call = null;
        }
    }

    private void compute(long t0) {
        long gap = Math.max(0, t0 - lastEnd) + carryNs;
        if (gap >= MIN_COMPUTE_NS) {
            out.add(new TraceRecord("", 0, TraceRecord.NONE, 0, rank, TraceOp.COMPUTE, 0, 0, 0, 0, 0, 0, gap * 1000, true,
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

    private void send(String[] w) {
        long req = Long.parseLong(w[4]);
        long addr = hex(w[6]);
        long len = hex(w[7]);
        int peer = Integer.parseInt(w[8]);
        boolean local = !remote(peer) || len == 0;
        if (!local) {
            coverage.use(addr, len);
            out.add(rec(TraceOp.SEND, addr, len, peer, 0, true, callOnce()));
        }
        if (req == 0) {
            if (!local) {
                deferredSends++;
            }
        } else {
            pending.put(req, new Pending(true, -1, local));
        }
    }

    private void receive(String[] w) {
        long req = Long.parseLong(w[4]);
        long addr = hex(w[6]);
        long len = hex(w[7]);
        int peer = Integer.parseInt(w[8]);
        // a receive from any source learns its sender when it completes; until then it is taken as remote
        boolean local = peer != -2 && !remote(peer) || len == 0;
        int index = -1;
        if (!local) {
            coverage.use(addr, len);
            index = out.size();
            out.add(rec(TraceOp.RECV, addr, len, Math.max(peer, 0), 0, true, callOnce()));
        }
        if (req == 0) {
            if (!local) {
                waitReceive();
            }
        } else {
            pending.put(req, new Pending(false, index, local));
        }
    }

    private void sendReceive(String[] w) {
        long saddr = hex(w[5]);
        long slen = hex(w[6]);
        int dest = Integer.parseInt(w[7]);
        long raddr = hex(w[8]);
        long rlen = hex(w[9]);
        int src = Integer.parseInt(w[10]);
        boolean sends = remote(dest) && slen > 0;
        boolean receives = remote(src) && rlen > 0;
        if (sends) {
            coverage.use(saddr, slen);
            out.add(rec(TraceOp.SEND, saddr, slen, dest, 0, true, callOnce()));
            deferredSends++;
        }
        if (receives) {
            coverage.use(raddr, rlen);
            out.add(rec(TraceOp.RECV, raddr, rlen, src, 0, true, callOnce()));
            waitReceive();
        } else {
            flushDeferred(false);
        }
    }

    private void done(String[] w) {
        int n = Integer.parseInt(w[4]);
        boolean received = false;
        for (int i = 0; i < n; i++) {
            long seq = Long.parseLong(w[5 + 2 * i]);
            int src = Integer.parseInt(w[6 + 2 * i]);
            Pending p = pending.remove(seq);
            if (p == null || p.local()) {
                continue;
            }
            if (p.send()) {
                out.add(waitRecord(true));
                continue;
            }
            TraceRecord posted = out.get(p.record());
            if (!remote(src)) {
                // a receive from any source that came from the rank itself: a copy in the library
                String c = posted.call();
                out.set(p.record(), c == null ? null : new TraceRecord("", 0, TraceRecord.NONE, 0, rank, TraceOp.MPI, 0, 0,
                        0, 0, 0, 0, 0, true, Advice.DONTNEED, false, TraceRecord.NONE, MpiFields.call(c)));
                continue;
            }
            if (posted.peer() != src) {
                out.set(p.record(), withPeer(posted, src));
            }
            out.add(waitRecord(false));
            received = true;
        }
        if (received) {
            flushDeferred(false);
        }
    }

    private void requestFreed(String[] w) {
        Pending p = pending.remove(Long.parseLong(w[4]));
        if (p != null && !p.local()) {
            if (p.send()) {
                deferredSends++;
            } else {
                deferredReceives++;
            }
        }
    }

    private void collective(String[] w) {
        Collective c = COLLECTIVES.get(call);
        int comm = comms.trace(rank, Integer.parseInt(w[4]));
        int[] members = comm < 0 ? null : comm == 1 ? new int[] {rank} : comms.members(comm);
        if (c == null || members == null) {
            return;
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
        scratch = Math.max(scratch, c.scratchBytes(m, blocks, members.length));
        out.add(r);
    }

    private void communicator(String[] w) {
        int id = comms.trace(rank, Integer.parseInt(w[5]));
        if (id < 2) {
            return;
        }
        out.add(new TraceRecord("", 0, TraceRecord.NONE, 0, rank, TraceOp.COMM, 0, 0, 0, 0, 0, 0, 0, true,
                Advice.DONTNEED, false, TraceRecord.NONE, new MpiFields(takeCall(), null, id, 0, 0, null,
                comms.members(id))));
    }

    private void window(String[] w) {
        coverage.use(hex(w[6]), hex(w[7]));
    }

    private void oneSided(String[] w) {
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
        out.add(rec(get ? TraceOp.GET : TraceOp.PUT, addr, len, target, tw.base() + disp * tw.unit(), true,
                callOnce()));
        rma.computeIfAbsent(comms.windowKey(rank, win), k -> new int[ranks])[target]++;
    }

    private void synchronise(String[] w) {
        int target = Integer.parseInt(w[5]);
        int win = Integer.parseInt(w[4]);
        String key = comms.windowKey(rank, win);
        int[] open = key == null ? null : rma.get(key);
        if (open != null && target != -2) {
            for (int t = 0; t < open.length; t++) {
                if (target == -1 || target == t) {
                    for (; open[t] > 0; open[t]--) {
                        out.add(waitRecord(true));
                    }
                }
            }
        }
        if (call != null && (call.equals("MPI_Win_fence") || call.equals("MPI_Win_free"))) {
            // both are collective: no rank goes on (reads what was put, frees its window) before all are there
            int comm = comms.windowComm(rank, win);
            int[] members = comm < 0 ? null : comm == 1 ? new int[] {rank} : comms.members(comm);
            if (members != null && members.length > 1) {
                out.add(new TraceRecord("", 0, TraceRecord.NONE, 0, rank, TraceOp.COLLECTIVE, 0, 0, 0, 0, 0, 0, 0, true,
                        Advice.DONTNEED, false, TraceRecord.NONE, new MpiFields(takeCall(), Collective.BARRIER, comm, 0,
                        0, null, null)));
                scratch = Math.max(scratch, Collective.BARRIER.scratchBytes(0, null, members.length));
            }
        }
    }

    // ---- waits

    private void waitReceive() {
        out.add(waitRecord(false));
        flushDeferred(false);
    }

    /** The waits of blocking sends (and, at the end, of freed requests) that completed without one. */
    private void flushDeferred(boolean end) {
        for (; deferredSends > 0; deferredSends--) {
            out.add(waitRecord(true));
        }
        if (end) {
            for (; deferredReceives > 0; deferredReceives--) {
                out.add(waitRecord(false));
            }
            for (int[] open : rma.values()) {
                for (int t = 0; t < open.length; t++) {
                    for (; open[t] > 0; open[t]--) {
                        out.add(waitRecord(true));
                    }
                }
            }
        }
    }

    private TraceRecord waitRecord(boolean send) {
        return new TraceRecord("", 0, TraceRecord.NONE, 0, rank, TraceOp.WAIT, 0, 0, 0, 0, 0, 0, 0, true,
                Advice.DONTNEED, send, TraceRecord.NONE, callOnce());
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

    private static TraceRecord withPeer(TraceRecord r, int peer) {
        return new TraceRecord(r.file(), r.line(), r.atPs(), r.gapPs(), r.rank(), r.op(), r.addr(), r.len(), r.newAddr(),
                r.newLen(), peer, r.raddr(), r.durationPs(), r.hooked(), r.advice(), r.sendQueue(), r.pinnedBytes(),
                r.mpi());
    }

    private static long hex(String s) {
        return Long.parseUnsignedLong(s, 16);
    }
}
