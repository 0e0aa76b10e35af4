package org.pagefabric.workload.trace;

import static org.pagefabric.workload.MpiApp.RECV_BUFFER;
import static org.pagefabric.workload.MpiApp.SEND_BUFFER;

import java.util.ArrayList;
import java.util.List;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.workload.MpiApp;
import org.pagefabric.workload.MpiApp.Op;
import org.pagefabric.workload.MpiApp.Step;

/**
 * Expands one member's collective record into the sends, receives and waits of the algorithm
 * {@link TunedDecision} picks. Each step posts its receives, then its sends, then waits for all of
 * them, as {@link MpiApp}'s schedules do. Receives that Open MPI makes into its own temporary
 * buffers (a reduction's partial results, a barrier's tokens) land in the rank's communication
 * segment, the replay's scratch space.
 */
final class CollectiveExpansion {
    /** Where a barrier's tokens go in the scratch space: one 8-byte slot per sender after this. */
    private static final long TOKENS = Collective.TOKEN_SPACE;
    /** A scratch buffer: an op's buffer index beyond the two {@link MpiApp} knows. */
    private static final int SCRATCH = 2;

    private final TraceRecord rec;
    private final int[] members;
    private final int me;
    private final int root;
    private final long sendBase;
    private final long recvBase;
    private final long scratch;
    private final List<TraceRecord> out = new ArrayList<>();

    private CollectiveExpansion(TraceRecord rec, int[] members, int me, long scratch) {
        this.rec = rec;
        this.members = members;
        this.me = me;
        MpiFields f = rec.mpi();
        this.root = f.coll().rooted() ? f.root() : 0;
        long recv = f.recvAddr();
        this.recvBase = recv;
        long send = rec.addr() != 0 ? rec.addr() : recv;
        if (rec.addr() == 0 && f.coll() == Collective.ALLGATHER) {
            send = recv + me * rec.len();
        } else if (rec.addr() == 0 && f.coll() == Collective.ALLGATHERV && f.blocks() != null) {
            send = recv + f.blocks()[4 * me + 3];
        }
        this.sendBase = send;
        this.scratch = scratch;
    }

    /**
     * The records member {@code me} of {@code members} replays for collective record {@code rec}.
     *
     * @param scratch the trace address of the rank's scratch space (its segment)
     */
    static List<TraceRecord> expand(TraceRecord rec, int[] members, int me, long scratch) {
        CollectiveExpansion e = new CollectiveExpansion(rec, members, me, scratch);
        if (members.length > 1) {
            e.steps(e.schedule());
        }
        return e.out;
    }

    /** The scratch bytes a collective of {@code p} members with record {@code rec} may use. */
    static long scratchBytes(TraceRecord rec, int p) {
        return rec.mpi().coll().scratchBytes(rec.len(), rec.mpi().blocks(), p);
    }

    private List<Step> schedule() {
        Collective c = rec.mpi().coll();
        int p = members.length;
        long m = rec.len();
        long decided = switch (c) {
            case REDUCE_SCATTER -> total(0);
            case REDUCE_SCATTER_BLOCK -> m * p;
            default -> m;
        };
        CollectiveAlgorithm a = TunedDecision.choose(c, p, decided);
        int rel = (me - root + p) % p;
        return switch (c) {
            case BARRIER -> barrier(a, rel, p);
            case BCAST -> switch (a) {
                case LINEAR -> linearBcast(rel, p, m);
                case CHAIN -> chainBcast(rel, p, m);
                default -> MpiApp.bcast(rel, p, m);
            };
            case REDUCE -> switch (a) {
                case LINEAR -> linearReduce(rel, p, m);
                case CHAIN -> chainReduce(rel, p, m);
                default -> intoScratch(MpiApp.reduce(rel, p, m), rel != 0);
            };
            case ALLREDUCE -> switch (a) {
                case REDUCE_SCATTER_THEN_ALLGATHER -> {
                    List<Step> s = new ArrayList<>(MpiApp.reduceScatter(rel, p, m));
                    s.addAll(MpiApp.allgatherv(rel, p, Math.max(1, m / p)));
                    yield s;
                }
                default -> MpiApp.allreduce(rel, p, m);
            };
            case SCAN -> chainScan(rel, p, m);
            case REDUCE_SCATTER_BLOCK -> MpiApp.reduceScatter(rel, p, m * p);
            case REDUCE_SCATTER -> pairwiseBlocks(rel, p, true);
            case ALLGATHER -> a == CollectiveAlgorithm.RECURSIVE_DOUBLING ? doublingAllgather(rel, p, m)
                    : MpiApp.allgatherv(rel, p, m);
            case ALLGATHERV -> ringBlocks(rel, p);
            case GATHER, GATHERV -> linearGather(rel, p);
            case SCATTER, SCATTERV -> linearScatter(rel, p);
            case ALLTOALL -> a == CollectiveAlgorithm.PAIRWISE ? MpiApp.alltoall(rel, p, m) : linearAlltoall(rel, p);
            case ALLTOALLV -> a == CollectiveAlgorithm.PAIRWISE ? pairwiseBlocks(rel, p, false) : linearAlltoall(rel, p);
        };
    }

    // ---- schedules the MpiApp vocabulary lacks; peers are ranks relative to the root

    private static List<Step> linearBcast(int rel, int p, long m) {
        List<Op> ops = new ArrayList<>();
        for (int j = 1; j < p; j++) {
            if (rel == 0) {
                ops.add(MpiApp.send(j, SEND_BUFFER, 0, m));
            }
        }
        if (rel != 0) {
            ops.add(MpiApp.recv(0, 0, m, 0, 0));
        }
        return List.of(new Step(ops, 0, 0));
    }

    private static List<Step> chainBcast(int rel, int p, long m) {
        List<Step> s = new ArrayList<>();
        if (rel > 0) {
            s.add(new Step(List.of(MpiApp.recv(rel - 1, 0, m, 0, 0)), 0, 0));
        }
        if (rel < p - 1) {
            s.add(new Step(List.of(MpiApp.send(rel + 1, rel == 0 ? SEND_BUFFER : RECV_BUFFER, 0, m)), 0, 0));
        }
        return s;
    }

    /** The root receives each contribution in turn into one temporary buffer, as Open MPI's linear reduce does. */
    private static List<Step> linearReduce(int rel, int p, long m) {
        List<Step> s = new ArrayList<>();
        if (rel == 0) {
            for (int j = 1; j < p; j++) {
                s.add(new Step(List.of(scratchRecv(j, 0, m)), m, 0));
            }
        } else {
            s.add(new Step(List.of(MpiApp.send(0, SEND_BUFFER, 0, m)), 0, 0));
        }
        return s;
    }

    private static List<Step> chainReduce(int rel, int p, long m) {
        List<Step> s = new ArrayList<>();
        if (rel < p - 1) {
            s.add(new Step(List.of(scratchRecv(rel + 1, 0, m)), m, 0));
        }
        if (rel > 0) {
            s.add(new Step(List.of(MpiApp.send(rel - 1, SEND_BUFFER, 0, m)), 0, 0));
        }
        return s;
    }

    /** Member i combines what member i-1 passes on with its own and passes the result to i+1. */
    private static List<Step> chainScan(int rel, int p, long m) {
        List<Step> s = new ArrayList<>();
        if (rel > 0) {
            s.add(new Step(List.of(scratchRecv(rel - 1, 0, m)), m, 0));
        }
        if (rel < p - 1) {
            s.add(new Step(List.of(MpiApp.send(rel + 1, RECV_BUFFER, 0, m)), 0, 0));
        }
        return s;
    }

    private static List<Step> barrier(CollectiveAlgorithm a, int rel, int p) {
        List<Step> s = new ArrayList<>();
        switch (a) {
            case LINEAR -> {
                if (rel == 0) {
                    List<Op> in = new ArrayList<>();
                    List<Op> outs = new ArrayList<>();
                    for (int j = 1; j < p; j++) {
                        in.add(token(j));
                        outs.add(new Op(true, j, SCRATCH, 0, 1, -1, 0));
                    }
                    s.add(new Step(in, 0, 0));
                    s.add(new Step(outs, 0, 0));
                } else {
                    s.add(new Step(List.of(new Op(true, 0, SCRATCH, 0, 1, -1, 0)), 0, 0));
                    s.add(new Step(List.of(token(0)), 0, 0));
                }
            }
            case RECURSIVE_DOUBLING -> {
                for (int mask = 1; mask < p; mask <<= 1) {
                    int partner = rel ^ mask;
                    s.add(new Step(List.of(token(partner), new Op(true, partner, SCRATCH, 0, 1, -1, 0)), 0, 0));
                }
            }
            default -> {
                for (int d = 1; d < p; d <<= 1) {
                    int to = (rel + d) % p;
                    int from = (rel - d + p) % p;
                    s.add(new Step(List.of(token(from), new Op(true, to, SCRATCH, 0, 1, -1, 0)), 0, 0));
                }
            }
        }
        return s;
    }

    /** A one-byte token from {@code from}, into a slot of its own so tokens never overwrite each other. */
    private static Op token(int from) {
        return new Op(false, from, SCRATCH, TOKENS + 8L * from, 1, from, 0);
    }

    private static Op scratchRecv(int from, long offset, long length) {
        return new Op(false, from, SCRATCH, offset, length, from, 0);
    }

    /** Recursive doubling allgather: in step k each member sends the 2^k blocks it holds to its partner. */
    private static List<Step> doublingAllgather(int rel, int p, long m) {
        List<Step> s = new ArrayList<>();
        for (int mask = 1; mask < p; mask <<= 1) {
            int partner = rel ^ mask;
            long mine = (long) (rel & ~(mask - 1)) * m;
            long theirs = (long) (partner & ~(mask - 1)) * m;
            Op send = mask == 1 ? MpiApp.send(partner, SEND_BUFFER, 0, m) : MpiApp.send(partner, RECV_BUFFER, mine, mask * m);
            s.add(new Step(List.of(MpiApp.recv(partner, theirs, mask * m, partner, 0), send), 0, 0));
        }
        return s;
    }

    private List<Step> ringBlocks(int rel, int p) {
        int left = (rel - 1 + p) % p;
        int right = (rel + 1) % p;
        List<Step> s = new ArrayList<>();
        for (int k = 0; k < p - 1; k++) {
            int out = (rel - k + p) % p;
            int in = (rel - k - 1 + p) % p;
            Op send = k == 0 ? MpiApp.send(right, SEND_BUFFER, 0, sendLen(0)) : MpiApp.send(right, RECV_BUFFER,
                    recvOff(out), recvLen(out));
            List<Op> ops = new ArrayList<>();
            if (recvLen(in) > 0) {
                ops.add(MpiApp.recv(left, recvOff(in), recvLen(in), in, 0));
            }
            if (send.length() > 0) {
                ops.add(send);
            }
            s.add(new Step(ops, 0, 0));
        }
        return s;
    }

    /** Pairwise exchange of per-member blocks; a reduce-scatter receives into scratch and reduces. */
    private List<Step> pairwiseBlocks(int rel, int p, boolean reduce) {
        List<Step> s = new ArrayList<>();
        for (int k = 1; k < p; k++) {
            int to = (rel + k) % p;
            int from = (rel - k + p) % p;
            List<Op> ops = new ArrayList<>();
            long in = reduce ? recvLen(rel) : recvLen(from);
            if (in > 0) {
                ops.add(reduce ? scratchRecv(from, 0, in) : MpiApp.recv(from, recvOff(from), in, from, 0));
            }
            if (sendLen(to) > 0) {
                ops.add(MpiApp.send(to, SEND_BUFFER, sendOff(to), sendLen(to)));
            }
            s.add(new Step(ops, reduce ? in : 0, 0));
        }
        return s;
    }

    private List<Step> linearAlltoall(int rel, int p) {
        List<Op> ops = new ArrayList<>();
        for (int k = 1; k < p; k++) {
            int from = (rel - k + p) % p;
            if (recvLen(from) > 0) {
                ops.add(MpiApp.recv(from, recvOff(from), recvLen(from), from, 0));
            }
        }
        for (int k = 1; k < p; k++) {
            int to = (rel + k) % p;
            if (sendLen(to) > 0) {
                ops.add(MpiApp.send(to, SEND_BUFFER, sendOff(to), sendLen(to)));
            }
        }
        return List.of(new Step(ops, 0, 0));
    }

    private List<Step> linearGather(int rel, int p) {
        List<Op> ops = new ArrayList<>();
        if (rel == 0) {
            for (int j = 1; j < p; j++) {
                if (recvLen(j) > 0) {
                    ops.add(MpiApp.recv(j, recvOff(j), recvLen(j), j, 0));
                }
            }
        } else if (sendLen(0) > 0) {
            ops.add(MpiApp.send(0, SEND_BUFFER, 0, sendLen(0)));
        }
        return List.of(new Step(ops, 0, 0));
    }

    private List<Step> linearScatter(int rel, int p) {
        List<Op> ops = new ArrayList<>();
        if (rel == 0) {
            for (int j = 1; j < p; j++) {
                if (sendLen(j) > 0) {
                    ops.add(MpiApp.send(j, SEND_BUFFER, sendOff(j), sendLen(j)));
                }
            }
        } else if (recvLen(0) > 0) {
            ops.add(MpiApp.recv(0, 0, recvLen(0), 0, 0));
        }
        return List.of(new Step(ops, 0, 0));
    }

    // ---- blocks, by member relative to the root; uniform collectives derive them from len

    private int abs(int rel) {
        return (rel + root) % members.length;
    }

    private long sendLen(int rel) {
        long[] b = rec.mpi().blocks();
        return b != null ? b[4 * abs(rel)] : rec.len();
    }

    private long sendOff(int rel) {
        long[] b = rec.mpi().blocks();
        return b != null ? b[4 * abs(rel) + 1] : abs(rel) * rec.len();
    }

    private long recvLen(int rel) {
        long[] b = rec.mpi().blocks();
        return b != null ? b[4 * abs(rel) + 2] : rec.len();
    }

    private long recvOff(int rel) {
        long[] b = rec.mpi().blocks();
        return b != null ? b[4 * abs(rel) + 3] : abs(rel) * rec.len();
    }

    private long total(int at) {
        long[] b = rec.mpi().blocks();
        long t = 0;
        for (int j = at; b != null && j < b.length; j += 4) {
            t += b[j];
        }
        return t;
    }

    /** A schedule whose receives go to scratch (a non-root's partial results in a reduction). */
    private static List<Step> intoScratch(List<Step> steps, boolean scratchReceives) {
        if (!scratchReceives) {
            return steps;
        }
        List<Step> out = new ArrayList<>();
        for (Step s : steps) {
            List<Op> ops = new ArrayList<>();
            for (Op o : s.ops()) {
                ops.add(o.send() ? o : new Op(false, o.peer(), SCRATCH, o.offset(), o.length(), o.origin(),
                        o.originOffset()));
            }
            out.add(new Step(ops, s.reduceBytes(), s.computeBytes()));
        }
        return out;
    }

    // ---- steps as records

    private void steps(List<Step> steps) {
        for (Step s : steps) {
            int receives = 0;
            int sends = 0;
            for (Op o : s.ops()) {
                if (!o.send()) {
                    TraceRecord r = p2p(TraceOp.RECV, o);
                    if (overlapsASend(r, s)) {
                        // in place (MPI_IN_PLACE): Open MPI receives into a temporary buffer, not the one it sends from
                        r = p2p(TraceOp.RECV, new Op(false, o.peer(), SCRATCH, 0, o.length(), o.origin(), o.originOffset()));
                    }
                    out.add(r);
                    receives++;
                }
            }
            for (Op o : s.ops()) {
                if (o.send()) {
                    out.add(p2p(TraceOp.SEND, o));
                    sends++;
                }
            }
            for (int i = 0; i < receives; i++) {
                out.add(waitFor(false));
            }
            for (int i = 0; i < sends; i++) {
                out.add(waitFor(true));
            }
        }
    }

    private boolean overlapsASend(TraceRecord recv, Step s) {
        for (Op o : s.ops()) {
            if (o.send()) {
                TraceRecord send = p2p(TraceOp.SEND, o);
                if (send.addr() < recv.addr() + recv.len() && recv.addr() < send.addr() + send.len()) {
                    return true;
                }
            }
        }
        return false;
    }

    private TraceRecord p2p(TraceOp op, Op o) {
        long base = switch (o.buffer()) {
            case SEND_BUFFER -> sendBase;
            case RECV_BUFFER -> recvBase != 0 ? recvBase : scratch;
            default -> scratch;
        };
        int peer = members[abs(o.peer())];
        // MPI matches a collective's messages in a context of their own, apart from the
        // communicator's point-to-point traffic
        return new TraceRecord(rec.file(), rec.line(), TraceRecord.NONE, 0, rec.rank(), op, base + o.offset(),
                o.length(), 0, 0, peer, 0, 0, true, Advice.DONTNEED, false, TraceRecord.NONE,
                MpiFields.pointToPoint(null, collectiveContext(rec.mpi().comm()), 0, MpiFields.NO_REQUEST));
    }

    /** The matching context of collectives on communicator {@code comm}: negative, apart from any trace id. */
    static int collectiveContext(int comm) {
        return -1 - comm;
    }

    private TraceRecord waitFor(boolean send) {
        // in the collective's context: it reaps the step's own operations, not the program's
        return new TraceRecord(rec.file(), rec.line(), TraceRecord.NONE, 0, rec.rank(), TraceOp.WAIT, 0, 0, 0, 0, 0, 0,
                0, true, Advice.DONTNEED, send, TraceRecord.NONE,
                MpiFields.pointToPoint(null, collectiveContext(rec.mpi().comm()), 0, MpiFields.NO_REQUEST));
    }
}
