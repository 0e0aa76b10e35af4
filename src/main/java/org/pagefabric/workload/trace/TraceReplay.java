package org.pagefabric.workload.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongArrayList;
import org.agrona.collections.LongArrayQueue;
import java.util.ArrayDeque;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Outcome;
import org.pagefabric.comm.PointToPoint;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.os.Advice;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.AllocationHooks;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.MapFlags;
import org.pagefabric.hw.os.MapResult;
import org.pagefabric.hw.os.OsException;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.hw.os.UserAllocator;
import org.pagefabric.reg.Capability;
import org.pagefabric.reg.PolicyRegistry;
import org.pagefabric.sim.SimulationException;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;
import org.pagefabric.workload.FailedOperations;
import org.pagefabric.workload.Workload;

/**
 * One replay of a trace on a job: a process per rank that runs the rank's records in order,
 * memory calls through the rank's hooked C library (or straight to the kernel for unhooked
 * ones), so registration caches see the churn; communication through {@link Rank}. Every source
 * is filled with a content tag before it is sent and every destination is compared with its
 * source when the completion is reaped, so a stale registration shows as a corrupted operation.
 * The job's pinned bytes are sampled as each record begins.
 */
public final class TraceReplay implements Workload.Run {
    private static final long TAG = 0x7EACE000_00000000L;

    /** What {@link #blocks} answers for an address no live malloc returned. */
    private static final long NO_BLOCK = -1;

    private final Trace trace;
    private final Job job;
    private final LatencyHistogram latencies;
    /** The trace's records, each collective followed by the point-to-point records it expands to. */
    private final List<TraceRecord> records;
    private final Expanded expansion;
    private final MpiCallCount calls;
    private final AddressMap[] maps;
    private final UserAllocator[] heaps;
    /** Per rank, the length of each live malloc block by its trace address. */
    private final Long2LongHashMap[] blocks;
    private final long[] brkBase;
    private final long[] heapLength;
    private final long[] generation;
    private final long[] postedAt;
    /**
     * MPI's point-to-point messaging, matching included, which a recorded MPI program's sends and
     * receives go through; {@code null} for a trace without MPI records, whose communication is verbs'.
     */
    private final PointToPoint p2p;
    /** Per sender and receiver, the digest and length of each verbs send not yet received, in order (pairs). */
    private final Long2ObjectHashMap<LongArrayQueue> inFlight = new Long2ObjectHashMap<>();
    /** The content digest of each send's buffer when it was posted, by record. */
    private final long[] sentDigest;
    /**
     * The content digest of each receive's buffer when its message was delivered, by record: what
     * arrived, before a collective's next step reuses the scratch bytes it came into.
     */
    private final long[] receivedDigest;
    /** Per rank, its requests by the id the trace gives them. */
    private final Long2ObjectHashMap<PointToPoint.Request>[] named;
    /**
     * Per rank, its send-queue (put, get, send) and receive requests that name no id, in posting
     * order: the program's own, and apart from them its collectives' steps, whose waits reap
     * only their step's operations.
     */
    private final ArrayDeque<PointToPoint.Request>[] unnamedSends;
    private final ArrayDeque<PointToPoint.Request>[] unnamedReceives;
    private final ArrayDeque<PointToPoint.Request>[] stepSends;
    private final ArrayDeque<PointToPoint.Request>[] stepReceives;
    private long truncated;
    /** Per rank, the send of an MPI_Sendrecv_replace just posted, for the receive that follows it. */
    private final PointToPoint.Request[] replacing;
    /** Per receive record, the user's buffer a Sendrecv_replace's receive is copied to, or 0. */
    private final long[] replaceInto;
    /** Per such receive record, the send its Sendrecv_replace reads the user's buffer for. */
    private final PointToPoint.Request[] replaceSend;
    /** Per rank, a mapping of its own for Sendrecv_replace's receives, and its length. */
    private final long[] scratchAt;
    private final long[] scratchLength;
    private long waitPs;
    private long lastRankDone;
    private final Completion[] wake;
    private int turn;
    private final LongArrayList sampleAt = new LongArrayList();
    private final LongArrayList samplePinned = new LongArrayList();
    private final LongArrayList sendLatencies = new LongArrayList();
    private long moved;
    private long firstPost = -1;
    private long lastReap;
    private long completions;
    private final FailedOperations failed = new FailedOperations();
    private long corrupted;
    private boolean finished;

    @SuppressWarnings("unchecked")
    TraceReplay(Trace trace, Job job, LatencyHistogram latencies, long eagerLimit) {
        this.trace = trace;
        this.job = job;
        this.latencies = latencies;
        int ranks = trace.header().ranks();
        this.expansion = new Expanded(trace);
        this.records = expansion.records();
        this.calls = new MpiCallCount(trace.header(), records);
        maps = new AddressMap[ranks];
        heaps = new UserAllocator[ranks];
        blocks = new Long2LongHashMap[ranks];
        brkBase = new long[ranks];
        heapLength = new long[ranks];
        generation = new long[ranks];
        wake = new Completion[ranks];
        postedAt = new long[records.size()];
        sentDigest = new long[records.size()];
        replaceInto = new long[records.size()];
        replaceSend = new PointToPoint.Request[records.size()];
        replacing = new PointToPoint.Request[ranks];
        scratchAt = new long[ranks];
        scratchLength = new long[ranks];
        receivedDigest = new long[records.size()];
        named = new Long2ObjectHashMap[ranks];
        unnamedSends = new ArrayDeque[ranks];
        unnamedReceives = new ArrayDeque[ranks];
        stepSends = new ArrayDeque[ranks];
        stepReceives = new ArrayDeque[ranks];
        // a policy with a messaging stack of its own matches by match bits and carries every byte
        boolean ownStack = PolicyRegistry.standard().descriptor(job.policy().name()).capabilities()
                .contains(Capability.OWN_MESSAGING);
        p2p = trace.mpi() ? new PointToPoint(job, eagerLimit, poolOffset(trace.header()), this::completed, ownStack)
                : null;
        for (int r = 0; r < ranks; r++) {
            Rank rank = job.rank(r);
            maps[r] = new AddressMap();
            named[r] = new Long2ObjectHashMap<>();
            unnamedSends[r] = new ArrayDeque<>();
            unnamedReceives[r] = new ArrayDeque<>();
            stepSends[r] = new ArrayDeque<>();
            stepReceives[r] = new ArrayDeque<>();
            long segmentAt = trace.header().segments() == null ? 0 : trace.header().segments()[r];
            // the messaging pool lies past the trace's segment, where no trace address can reach it
            maps[r].map(segmentAt, trace.header().segmentBytes(), rank.segment());
            blocks[r] = new Long2LongHashMap(NO_BLOCK);
            brkBase[r] = trace.header().brkStarts() == null ? TraceRecord.NONE : trace.header().brkStarts()[r];
            wake[r] = new Completion("trace-rank" + r + ".turn");
        }
    }

    /** Where the messaging pool starts in a rank's segment: past the trace's own segment, page-aligned. */
    static long poolOffset(TraceHeader h) {
        return pageUp(h.segmentBytes());
    }

    /** The segment a rank needs: the trace's, then, for an MPI program, the messaging pool. */
    static long segmentBytes(Trace trace, long eagerLimit) {
        TraceHeader h = trace.header();
        return trace.mpi() ? poolOffset(h) + pageUp(PointToPoint.poolBytes(h.ranks(), eagerLimit)) : h.segmentBytes();
    }

    /** Starts one process per rank. */
    void start() {
        if (p2p != null) {
            p2p.start();
        }
        int ranks = trace.header().ranks();
        List<List<Integer>> mine = new ArrayList<>();
        for (int r = 0; r < ranks; r++) {
            mine.add(new ArrayList<>());
        }
        for (int r = 0; r < ranks; r++) {
            for (int k : expansion.order(r)) {
                mine.get(r).add(k);
            }
        }
        for (int r = 0; r < ranks; r++) {
            Rank rank = job.rank(r);
            int[] own = mine.get(r).stream().mapToInt(Integer::intValue).toArray();
            if (own.length == 0) {
                continue;
            }
            new SimProcess(job.simulator(), rank.node(), "trace-rank" + r, ctx -> {
                for (int k : own) {
                    TraceRecord rec = records.get(k);
                    if (rec.timed()) {
                        if (ctx.now() < rec.atPs()) {
                            ctx.sleep(rec.atPs() - ctx.now());
                        }
                    } else if (rec.gapPs() > 0) {
                        ctx.sleep(rec.gapPs());
                    }
                    begin(ctx, rec.rank(), k);
                    calls.performed(k);
                    long from = ctx.now();
                    try {
                        execute(ctx, rank, k, rec);
                    } catch (OsException e) {
                        throw refused(rec, e.getMessage());
                    }
                    if (rec.op() == TraceOp.WAIT) {
                        waitPs += ctx.now() - from;
                    }
                }
                lastRankDone = Math.max(lastRankDone, ctx.now());
            }).start();
        }
    }

    /** Waits for record {@code k}'s turn (file order), then samples the pinned bytes. */
    private void begin(ProcessContext ctx, int r, int k) {
        if (trace.header().fileOrder()) {
            while (turn != k) {
                ctx.await(wake[r]);
                wake[r].reset();
            }
            turn++;
            if (turn < records.size()) {
                Completion next = wake[records.get(turn).rank()];
                if (!next.isDone()) {
                    next.complete();
                }
            }
        }
        sampleAt.addLong(ctx.now());
        samplePinned.addLong(job.pinnedBytes());
    }

    private void execute(ProcessContext ctx, Rank rank, int k, TraceRecord rec) {
        int r = rec.rank();
        if (p2p == null && rec.op().communicates()) {
            executeVerbs(ctx, rank, k, rec);
            return;
        }
        switch (rec.op()) {
            case MMAP -> {
                MapResult m = mmap(rank, rec, rec.addr(), rec.len());
                maps[r].map(rec.addr(), pageUp(rec.len()), m.address());
                memoryChanged(r);
                ctx.sleep(m.costPs());
            }
            case MUNMAP -> {
                long cost = unmap(rank, rec, rec.addr(), rec.len());
                memoryChanged(r);
                ctx.sleep(cost);
            }
            case MREMAP -> {
                long from = translate(rec, r, rec.addr(), rec.len());
                long cost = unmap(rank, rec, rec.addr(), rec.len());
                // a move in place is hinted where the old mapping lay on replay, not where it lay in the trace
                MapResult m = mmap(rank, rec, rec.newAddr() == rec.addr() ? from : rec.newAddr(), rec.newLen());
                maps[r].map(rec.newAddr(), pageUp(rec.newLen()), m.address());
                memoryChanged(r);
                ctx.sleep(cost + m.costPs());
            }
            case MADVISE -> {
                long va = translate(rec, r, rec.addr(), rec.len());
                long cost = rec.hooked() && rec.advice() == Advice.DONTNEED
                        ? rank.hooks().madviseDontneed(va, rec.len())
                        : kernel(rank).madvise(rank.process(), va, rec.len(), rec.advice());
                memoryChanged(r);
                ctx.sleep(cost);
            }
            case BRK -> ctx.sleep(brk(rank, rec));
            case MALLOC -> {
                UserAllocator.Allocation a = heap(rank).malloc(rec.len());
                if (a.address() == 0) {
                    throw refused(rec, "malloc(" + rec.len() + ") found no memory on replay");
                }
                maps[r].map(rec.addr(), rec.len(), a.address());
                blocks[r].put(rec.addr(), rec.len());
                memoryChanged(r);
                ctx.sleep(a.costPs());
            }
            case FREE -> {
                long len = blocks[r].remove(rec.addr());
                if (len == NO_BLOCK) {
                    throw refused(rec, "free of " + hex(rec.addr()) + ", which no earlier malloc of rank " + r
                            + " returned (or which was freed already)");
                }
                long va = maps[r].translate(rec.addr());
                maps[r].unmap(rec.addr(), len);
                memoryChanged(r);
                ctx.sleep(heap(rank).free(va));
            }
            case REGISTER -> {
                // the application asks for the range to be registered: the policy prepares it as
                // for an operation on it and hears at once that the operation is over; all of it is
                // the rank's registration time, as the same work before a put is
                rank.register(ctx, translate(rec, r, rec.addr(), rec.len()), rec.len());
            }
            case DEREGISTER -> translate(rec, r, rec.addr(), rec.len());
            case PUT -> {
                long local = translate(rec, r, rec.addr(), rec.len());
                long remote = translate(rec, rec.peer(), rec.raddr(), rec.len());
                fill(rank, local, rec.len(), tag(r, rec));
                posted(ctx, k);
                name(r, rec, p2p.write(ctx, r, rec.peer(), local, remote, rec.len()), k);
            }
            case GET -> {
                Rank peer = job.rank(rec.peer());
                long local = translate(rec, r, rec.addr(), rec.len());
                long remote = translate(rec, rec.peer(), rec.raddr(), rec.len());
                fill(peer, remote, rec.len(), tag(rec.peer(), rec));
                posted(ctx, k);
                name(r, rec, p2p.read(ctx, r, rec.peer(), local, remote, rec.len()), k);
            }
            case SEND -> {
                long local = 0;
                if (rec.len() > 0) {
                    local = translate(rec, r, rec.addr(), rec.len());
                    // a collective's scratch bytes in the segment may be receiving another step's
                    // message (a zero-length collective's tokens share one byte): sent as they are
                    if (!(envelopeComm(rec) < 0 && inSegment(rank, local, rec.len()))) {
                        fill(rank, local, rec.len(), tag(r, rec));
                    }
                    sentDigest[k] = kernel(rank).digest(rank.process(), local, rec.len());
                }
                posted(ctx, k);
                PointToPoint.Request q = p2p.isend(ctx, r, rec.peer(), envelopeTag(rec), envelopeComm(rec), local,
                        rec.len());
                name(r, rec, q, k);
                if ("MPI_Sendrecv_replace".equals(rec.call())) {
                    replacing[r] = q;
                }
                if (blocking(rec)) {
                    // MPI_Send returns once its buffer may be reused: a rendezvous only once the
                    // data left it, so the program may free the buffer right after
                    p2p.await(ctx, q);
                }
            }
            case RECV -> {
                long local = rec.len() > 0 ? translate(rec, r, rec.addr(), rec.len()) : 0;
                PointToPoint.Request sending = replacing[r];
                replacing[r] = null;
                if (sending != null && !sending.done() && overlaps(sending, local, rec.len())) {
                    // MPI_Sendrecv_replace receives into a buffer of the library's own while its
                    // send still reads the user's, and copies it over once both are done
                    replaceInto[k] = local;
                    replaceSend[k] = sending;
                    local = scratch(ctx, rank, rec.len());
                }
                posted(ctx, k);
                name(r, rec, p2p.irecv(ctx, r, rec.peer(), envelopeTag(rec), envelopeComm(rec), local, rec.len(), k), k);
            }
            case WAIT -> {
                long req = rec.mpi() == null ? MpiFields.NO_REQUEST : rec.mpi().request();
                if (req != MpiFields.NO_REQUEST) {
                    PointToPoint.Request q = named[r].remove(req);
                    if (q == null) {
                        throw refused(rec, "request " + req + " of rank " + r + " was not started by an earlier send,"
                                + " receive, put or get of the rank (or was waited for already)");
                    }
                    p2p.await(ctx, q);
                    reap(ctx, rank, q);
                } else {
                    PointToPoint.Request q = unnamed(r, rec, rec.sendQueue()).pollFirst();
                    if (q == null) {
                        throw refused(rec, "rank " + r + " waits on its " + (rec.sendQueue() ? "send" : "receive")
                                + " queue, where no operation without a request id is outstanding");
                    }
                    p2p.await(ctx, q);
                    reap(ctx, rank, q);
                }
            }
            case COMPUTE -> rank.compute(ctx, rec.durationPs());
            // polls that found nothing move no bytes, only the time they covered
            case MPI -> ctx.sleep(rec.durationPs());
            case COLLECTIVE, COMM -> { }
            default -> throw refused(rec, rec.op().wireName() + " is not replayable");
        }
    }

    private void posted(ProcessContext ctx, int k) {
        postedAt[k] = ctx.now();
        if (firstPost < 0) {
            firstPost = ctx.now();
        }
    }

    /**
     * Communication of a trace without MPI records, as verbs carry it: a send consumes the
     * receiver's next posted receive from that rank, and a wait reaps the next completion of its
     * queue, as a program on the verbs interface sees them.
     */
    private void executeVerbs(ProcessContext ctx, Rank rank, int k, TraceRecord rec) {
        int r = rec.rank();
        switch (rec.op()) {
            case PUT -> {
                Rank peer = job.rank(rec.peer());
                long local = translate(rec, r, rec.addr(), rec.len());
                long remote = translate(rec, rec.peer(), rec.raddr(), rec.len());
                fill(rank, local, rec.len(), tag(r, rec));
                posted(ctx, k);
                rank.write(ctx, peer, local - rank.segment(), remote - peer.segment(), rec.len(), k);
            }
            case GET -> {
                Rank peer = job.rank(rec.peer());
                long local = translate(rec, r, rec.addr(), rec.len());
                long remote = translate(rec, rec.peer(), rec.raddr(), rec.len());
                fill(peer, remote, rec.len(), tag(rec.peer(), rec));
                posted(ctx, k);
                rank.read(ctx, peer, remote - peer.segment(), local - rank.segment(), rec.len(), k);
            }
            case SEND -> {
                Rank peer = job.rank(rec.peer());
                long local = translate(rec, r, rec.addr(), rec.len());
                fill(rank, local, rec.len(), tag(r, rec));
                long digest = kernel(rank).digest(rank.process(), local, rec.len());
                LongArrayQueue sends = inFlight.computeIfAbsent(pair(r, rec.peer()), p -> new LongArrayQueue(Long.MIN_VALUE));
                sends.offerLong(digest);
                sends.offerLong(rec.len());
                posted(ctx, k);
                rank.send(ctx, peer, local - rank.segment(), rec.len(), k);
            }
            case RECV -> {
                long local = translate(rec, r, rec.addr(), rec.len());
                rank.receive(ctx, job.rank(rec.peer()), local - rank.segment(), rec.len(), k);
            }
            case WAIT -> {
                if (rec.sendQueue()) {
                    reapSend(ctx, rank);
                } else {
                    reapReceive(ctx, rank);
                }
            }
            default -> throw new IllegalStateException(rec.op().wireName());
        }
    }

    private void reapSend(ProcessContext ctx, Rank rank) {
        var wc = rank.awaitSend(ctx);
        int k = (int) wc.wrId();
        TraceRecord done = records.get(k);
        long took = ctx.now() - postedAt[k];
        latencies.record(took);
        sendLatencies.addLong(took);
        completions++;
        lastReap = ctx.now();
        if (wc.status() != Outcome.SUCCESS) {
            failed.completed(wc.status());
            if (done.op() == TraceOp.SEND) {
                // the receive this send was for will never complete: stop with the reason, not a deadlock
                throw refused(done, "the send of " + done.len() + " B at " + hex(done.addr()) + " to rank "
                        + done.peer() + " completed with " + wc.status() + " under " + rank.policy().name()
                        + ", so its receive never completes");
            }
            return;
        }
        moved += done.len();
        if (done.op() == TraceOp.PUT || done.op() == TraceOp.GET) {
            Rank peer = job.rank(done.peer());
            long local = maps[done.rank()].translate(done.addr());
            long remote = maps[done.peer()].translate(done.raddr());
            if (digest(rank, local, done.len()) != digest(peer, remote, done.len())) {
                corrupted++;
            }
        }
    }

    private void reapReceive(ProcessContext ctx, Rank rank) {
        var wc = rank.awaitReceive(ctx);
        int k = (int) wc.wrId();
        TraceRecord done = records.get(k);
        completions++;
        if (wc.status() != Outcome.SUCCESS) {
            failed.completed(wc.status());
            return;
        }
        LongArrayQueue sent = inFlight.get(pair(done.peer(), done.rank()));
        if (sent == null || sent.isEmpty()) {
            corrupted++;
            return;
        }
        long digest = sent.pollLong();
        long len = sent.pollLong();
        if (len > done.len() || digest(rank, maps[done.rank()].translate(done.addr()), len) != digest) {
            corrupted++;
        }
    }

    private static long pair(int from, int to) {
        return ((long) from << 32) | to;
    }

    /** The messaging layer completed {@code q}: a receive's bytes are taken in as they arrived. */
    private void completed(PointToPoint.Request q) {
        if (q.kind() == PointToPoint.Request.RECEIVE && q.status() == Outcome.SUCCESS && q.received() > 0) {
            receivedDigest[(int) q.userData()] = digest(job.rank(q.rank()), q.va(), q.received());
        }
    }

    /**
     * Keeps a request by the id its record gives it, for the wait that names it; one without an
     * id (a blocking call's, a collective's step) is reaped by the rank's next wait on its queue
     * that names none, in the order they were posted.
     */
    private void name(int r, TraceRecord rec, PointToPoint.Request q, int k) {
        q.userData(k);
        if (rec.mpi() != null && rec.mpi().hasRequest()) {
            named[r].put(rec.mpi().request(), q);
        } else {
            unnamed(r, rec, q.kind() != PointToPoint.Request.RECEIVE).addLast(q);
        }
    }

    /** The queue of requests without an id that record {@code rec} of rank {@code r} belongs to. */
    private ArrayDeque<PointToPoint.Request> unnamed(int r, TraceRecord rec, boolean sendQueue) {
        boolean step = rec.mpi() != null && rec.mpi().comm() < 0;
        return step ? (sendQueue ? stepSends[r] : stepReceives[r]) : (sendQueue ? unnamedSends[r] : unnamedReceives[r]);
    }

    private static boolean overlaps(PointToPoint.Request q, long va, long len) {
        return va < q.va() + q.length() && q.va() < va + len;
    }

    private boolean inSegment(Rank rank, long va, long len) {
        return va >= rank.segment() && va + len <= rank.segment() + rank.segmentLength();
    }

    /** A mapping of the rank's own of at least {@code len} bytes, as the library allocates one. */
    private long scratch(ProcessContext ctx, Rank rank, long len) {
        int r = rank.id();
        if (scratchLength[r] < len) {
            if (scratchLength[r] > 0) {
                ctx.sleep(kernel(rank).munmap(rank.process(), scratchAt[r], scratchLength[r]));
            }
            long bytes = pageUp(len);
            MapResult m = kernel(rank).mmap(rank.process(), 0, bytes, Prot.READ_WRITE, MapFlags.NONE);
            ctx.sleep(m.costPs());
            scratchAt[r] = m.address();
            scratchLength[r] = bytes;
        }
        return scratchAt[r];
    }

    /** Whether a send is a blocking call of its own (not a step of a collective or a Sendrecv). */
    private static boolean blocking(TraceRecord rec) {
        if (rec.mpi() == null || rec.mpi().hasRequest() || rec.call() == null) {
            return false;
        }
        return switch (rec.call()) {
            case "MPI_Send", "MPI_Ssend", "MPI_Rsend" -> true;
            default -> false;
        };
    }

    private static int envelopeTag(TraceRecord rec) {
        return rec.mpi() == null ? 0 : rec.mpi().tag();
    }

    private static int envelopeComm(TraceRecord rec) {
        return rec.mpi() == null ? 0 : rec.mpi().comm();
    }

    /** A wait reaped {@code q}: its time is a latency, its bytes are checked against what was sent. */
    private void reap(ProcessContext ctx, Rank rank, PointToPoint.Request q) {
        int k = (int) q.userData();
        TraceRecord done = records.get(k);
        completions++;
        lastReap = ctx.now();
        if (q.kind() != PointToPoint.Request.RECEIVE) {
            long took = ctx.now() - postedAt[k];
            latencies.record(took);
            sendLatencies.addLong(took);
        }
        if (q.status() != Outcome.SUCCESS) {
            failed.completed(q.status());
            return;
        }
        switch (q.kind()) {
            case PointToPoint.Request.RECEIVE -> {
                if (q.truncatedFrom() >= 0) {
                    truncated++;
                    return;
                }
                if (replaceInto[k] != 0 && q.received() > 0) {
                    p2p.await(ctx, replaceSend[k]);
                    ctx.sleep(p2p.copy(done.rank(), q.va(), replaceInto[k], q.received()));
                }
                int from = (int) q.matchedSend().userData();
                if (q.received() > 0 && receivedDigest[k] != sentDigest[from]) {
                    corrupted++;
                }
            }
            case PointToPoint.Request.SEND -> moved += done.len();
            default -> {
                moved += done.len();
                Rank peer = job.rank(done.peer());
                long local = maps[done.rank()].translate(done.addr());
                long remote = maps[done.peer()].translate(done.raddr());
                if (digest(rank, local, done.len()) != digest(peer, remote, done.len())) {
                    corrupted++;
                }
            }
        }
    }

    private MapResult mmap(Rank rank, TraceRecord rec, long hint, long len) {
        return rec.hooked() ? rank.hooks().mmap(hint, len, Prot.READ_WRITE, MapFlags.NONE)
                : kernel(rank).mmap(rank.process(), hint, len, Prot.READ_WRITE, MapFlags.NONE);
    }

    /** Unmaps the replay pieces of trace range {@code [addr, addr+len)} and forgets the range. */
    private long unmap(Rank rank, TraceRecord rec, long addr, long len) {
        int r = rec.rank();
        long cost = 0;
        long covered = 0;
        for (long[] piece : maps[r].pieces(addr, pageUp(len))) {
            covered += piece[1];
            cost += rec.hooked() ? rank.hooks().munmap(piece[2], piece[1])
                    : kernel(rank).munmap(rank.process(), piece[2], piece[1]);
        }
        if (covered == 0) {
            throw refused(rec, "[" + hex(addr) + ", +" + len + ") was not mapped by an earlier record of rank " + r);
        }
        maps[r].unmap(addr, pageUp(len));
        return cost;
    }

    /** Moves the break as far from the replay's initial break as the trace moved it from its own. */
    private long brk(Rank rank, TraceRecord rec) {
        int r = rec.rank();
        if (brkBase[r] == TraceRecord.NONE) {
            brkBase[r] = rec.addr();
        }
        if (rec.addr() < brkBase[r]) {
            throw refused(rec, "break " + hex(rec.addr()) + " lies below the initial break " + hex(brkBase[r]));
        }
        AddressSpace as = rank.process();
        long target = as.brkStart() + (rec.addr() - brkBase[r]);
        MapResult m = rec.hooked() ? rank.hooks().brk(target) : kernel(rank).brk(as, target);
        if (m.address() != target) {
            throw refused(rec, "the heap could not grow to " + hex(target) + " on replay");
        }
        if (heapLength[r] > 0) {
            maps[r].unmap(brkBase[r], heapLength[r]);
        }
        heapLength[r] = pageUp(rec.addr()) - brkBase[r];
        if (heapLength[r] > 0) {
            maps[r].map(brkBase[r], heapLength[r], as.brkStart());
        }
        memoryChanged(r);
        return m.costPs();
    }

    private UserAllocator heap(Rank rank) {
        int r = rank.id();
        if (heaps[r] == null) {
            heaps[r] = new UserAllocator(kernel(rank), rank.process(), trace.header().allocator(), rank.hooks());
        }
        return heaps[r];
    }

    /** The replay address of a buffer the record names, which must lie in one mapped range. */
    private long translate(TraceRecord rec, int r, long addr, long len) {
        if (!maps[r].holds(addr, len)) {
            throw refused(rec, "[" + hex(addr) + ", +" + len + ") of rank " + r + " is not within the segment"
                    + " or one range an earlier record mapped");
        }
        return maps[r].translate(addr);
    }

    /** The content a source holds: new after every change of its rank's memory, so old frames differ. */
    private long tag(int r, TraceRecord rec) {
        return TAG ^ ((long) r << 48) ^ (generation[r] << 20) ^ (rec.addr() & 0xFFFFF);
    }

    private void memoryChanged(int r) {
        generation[r]++;
    }

    private static void fill(Rank r, long va, long len, long tag) {
        kernel(r).writeTag(r.process(), va, len, tag, 0);
    }

    private static long digest(Rank r, long va, long len) {
        return kernel(r).digest(r.process(), va, len);
    }

    private static Kernel kernel(Rank r) {
        return r.node().kernel();
    }

    private static double micros(long ps) {
        return Math.round(ps / (double) Time.US * 1000) / 1000.0;
    }

    private static long pageUp(long bytes) {
        return (bytes + Kernel.PAGE_SIZE - 1) & -Kernel.PAGE_SIZE;
    }

    private static String hex(long a) {
        return "0x" + Long.toHexString(a);
    }

    private SimulationException refused(TraceRecord rec, String problem) {
        String where = rec.file().isEmpty() ? trace.file() : rec.file() + ":" + rec.line();
        return new SimulationException(where + ": " + rec.op().wireName() + ": " + problem);
    }

    private void finish() {
        if (!finished) {
            finished = true;
            sampleAt.addLong(job.simulator().now());
            samplePinned.addLong(job.pinnedBytes());
        }
    }

    /**
     * The pinned-memory curve: bytes pinned over the job as each record began, in the order they
     * began, then once when the simulation ended.
     */
    public long[] pinnedCurve() {
        finish();
        return samplePinned.toLongArray();
    }

    /** The times of {@link #pinnedCurve()}'s samples, picoseconds. */
    public long[] pinnedCurveTimes() {
        finish();
        return sampleAt.toLongArray();
    }

    /** Post-to-reap time of every send-queue completion (put, get, send), in the order reaped, picoseconds. */
    public long[] sendLatencies() {
        return sendLatencies.toLongArray();
    }

    @Override
    public double bytesPerSecond() {
        long span = lastReap - firstPost;
        return firstPost < 0 || span <= 0 ? 0 : moved / (span / (double) Time.S);
    }

    @Override
    public boolean verified() {
        return failed.count() == 0 && corrupted == 0 && truncated == 0 && calls.mismatch() == null;
    }

    @Override
    public String failure() {
        String f = failed.describe(completions, "operations");
        if (f != null) {
            return f;
        }
        if (truncated > 0) {
            return truncated + " receives met a message longer than their buffer (MPI_ERR_TRUNCATE)";
        }
        String m = calls.mismatch();
        if (m != null && corrupted == 0) {
            return m;
        }
        return corrupted > 0 ? corrupted + " of " + completions + " operations delivered other bytes than the"
                + " application's buffer held (a registration gone stale)" : null;
    }

    @Override
    public Map<String, Object> extraMetrics() {
        long peak = 0;
        for (long p : pinnedCurve()) {
            peak = Math.max(peak, p);
        }
        Map<String, Object> m = new java.util.LinkedHashMap<>();
        m.put(TraceWorkload.CORRUPTED, corrupted);
        m.put(TraceWorkload.RECORDS, (long) trace.records().size());
        m.put(TraceWorkload.COMPLETIONS, completions);
        m.put(TraceWorkload.PINNED_PEAK, Math.round(peak / (double) (1 << 20) * 1000) / 1000.0);
        m.put(TraceWorkload.MPI_CALLS, calls.total());
        m.put(TraceWorkload.RUNTIME, micros(lastRankDone));
        m.put(TraceWorkload.WAIT, micros(waitPs));
        m.put(TraceWorkload.COPY, micros(p2p == null ? 0 : p2p.copyPs()));
        m.put(TraceWorkload.EAGER_MESSAGES, p2p == null ? 0L : p2p.eagerMessages());
        m.put(TraceWorkload.RENDEZVOUS_MESSAGES, p2p == null ? 0L : p2p.rendezvousMessages());
        m.put(TraceWorkload.UNEXPECTED_MESSAGES, p2p == null ? 0L : p2p.unexpectedMessages());
        return m;
    }
}
