package org.pagefabric.comm;

import java.util.ArrayDeque;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongArrayQueue;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.MapFlags;
import org.pagefabric.hw.os.MapResult;
import org.pagefabric.hw.os.OsException;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.reg.pinning.CpuCopy;
import org.pagefabric.sim.SimulationException;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.process.SimProcess;

/**
 * MPI point-to-point messaging among a job's ranks, carried on verbs the way Open MPI's openib
 * transport and UCX carry it, with MPI's matching ({@link MatchingQueues}) at the receiver:
 *
 * <ul>
 *   <li><b>Eager</b>, a message of at most the eager limit: the sender copies it behind a 64-byte
 *   header into a send fragment of its segment (registered with the segment) and sends the
 *   fragment into one of the eager buffers the receiver keeps posted for it; the send is complete
 *   once copied, whether or not a receive is posted. On arrival the receiver matches the envelope:
 *   into the posted receive's buffer, or into an unexpected buffer of its own memory until a
 *   receive takes it (a copy each way). Fragments are flow-controlled by credits, one per eager
 *   buffer the receiver keeps posted for the sender.</li>
 *   <li><b>Rendezvous</b>, a larger message: the sender's request to send (RTS) is an eager
 *   header; once a receive matches it, the receiver answers with its buffer (CTS), the sender
 *   writes its buffer into it with one RDMA write, which the registration policy prepares at
 *   both ends like any put, and tells the receiver (FIN). The send completes when the write
 *   does, the receive when the FIN arrives.</li>
 * </ul>
 *
 * <p>Arrivals and completions are handled by progress processes of each rank beside the
 * application's, as an asynchronous progress thread does, so a rank that computes does not hold
 * back a peer's handshake and no correct program deadlocks on the eager limit it was run with.
 * The copies cost what the profile's memcpy costs ({@link CpuCopy}); a header's identity is read
 * from the bytes that arrived, so a fragment delivered to the wrong buffer shows, not a nicer
 * number.
 */
public final class PointToPoint {
    /** Bytes of a message header on the wire (envelope, length, protocol fields). */
    public static final long HEADER_BYTES = 64;
    /** Eager buffers a rank keeps posted for each peer: the peer's credits. */
    public static final int CREDITS = 8;
    /** Send fragments per rank. */
    public static final int SEND_FRAGMENTS = 32;

    private static final int EAGER = 0;
    private static final int RTS = 1;
    private static final int CTS = 2;
    private static final int FIN = 3;
    /** A message of a stack that matches by match bits: its envelope, known to the receiver's matching. */
    private static final int KEYED = 4;
    /** Unexpected buffers mapped at a time when a rank runs out of them. */
    private static final int HOLDING_CHUNK = 32;
    /** Work request ids of eager-buffer receives: this bit, the peer and the buffer index. */
    private static final long RECEIVE_WR = 1L << 62;

    /** Hears every request that completes, in the order they complete. */
    @FunctionalInterface
    public interface Listener {
        /** {@code r} completed (its status says how). */
        void completed(Request r);
    }

    /** One nonblocking operation of a rank: a send, a receive, or an RDMA write or read. */
    public static final class Request {
        /** A message send. */
        public static final int SEND = 0;
        /** A message receive. */
        public static final int RECEIVE = 1;
        /** A one-sided write. */
        public static final int WRITE = 2;
        /** A one-sided read. */
        public static final int READ = 3;

        private final int kind;
        private final int rank;
        private final int peer;
        private final int tag;
        private final int comm;
        private final long va;
        private final long length;
        private final org.pagefabric.sim.process.Completion signal = new org.pagefabric.sim.process.Completion();
        private boolean done;
        private Outcome status = Outcome.SUCCESS;
        private int source = MatchingQueues.ANY_SOURCE;
        private int receivedTag = MatchingQueues.ANY_TAG;
        private long received;
        private Request matched;
        private long truncatedFrom = -1;
        private long userData;
        private long writeTo;

        private Request(int kind, int rank, int peer, int tag, int comm, long va, long length) {
            this.kind = kind;
            this.rank = rank;
            this.peer = peer;
            this.tag = tag;
            this.comm = comm;
            this.va = va;
            this.length = length;
        }

        /** {@link #SEND}, {@link #RECEIVE}, {@link #WRITE} or {@link #READ}. */
        public int kind() {
            return kind;
        }

        /** The rank that made the request. */
        public int rank() {
            return rank;
        }

        /** The destination of a send or a one-sided operation, the source a receive named. */
        public int peer() {
            return peer;
        }

        /** The tag a send carries or a receive named. */
        public int tag() {
            return tag;
        }

        /** The communicator's context. */
        public int comm() {
            return comm;
        }

        /** The local buffer. */
        public long va() {
            return va;
        }

        /** Bytes of the local buffer. */
        public long length() {
            return length;
        }

        /** Whether it completed. */
        public boolean done() {
            return done;
        }

        /** How it completed: a failure of the NIC's operation, or {@link Outcome#SUCCESS}. */
        public Outcome status() {
            return status;
        }

        /** A completed receive's sender (its status's MPI_SOURCE). */
        public int source() {
            return source;
        }

        /** A completed receive's tag (its status's MPI_TAG). */
        public int receivedTag() {
            return receivedTag;
        }

        /** Bytes a completed receive took. */
        public long received() {
            return received;
        }

        /** The send a completed receive took its message from. */
        public Request matchedSend() {
            return matched;
        }

        /** The length of a message too long for this receive (MPI_ERR_TRUNCATE), or -1. */
        public long truncatedFrom() {
            return truncatedFrom;
        }

        /** A value the caller keeps with the request. */
        public long userData() {
            return userData;
        }

        /** Keeps {@code v} with the request. */
        public void userData(long v) {
            this.userData = v;
        }
    }

    /** A message header: what the fragment's first bytes stand for. */
    private static final class Packet {
        final int kind;
        final int source;
        final int tag;
        final int comm;
        final long length;
        final Request send;
        Request receive;
        long holding;
        long bits;

        Packet(int kind, int source, int tag, int comm, long length, Request send, Request receive) {
            this.kind = kind;
            this.source = source;
            this.tag = tag;
            this.comm = comm;
            this.length = length;
            this.send = send;
            this.receive = receive;
        }
    }

    /** One rank's side: its matching, fragments, credits and progress queues. */
    private final class Side {
        final Rank rank;
        final Kernel kernel;
        final MatchingQueues<Request, Packet> matching = new MatchingQueues<>();
        final LongArrayQueue freeFragments = new LongArrayQueue(Long.MIN_VALUE);
        final org.pagefabric.sim.process.Completion fragmentFreed;
        final int[] credits;
        final org.pagefabric.sim.process.Completion[] creditReturned;
        final long eagerBuffers;
        final Long2ObjectHashMap<Request> onSendQueue = new Long2ObjectHashMap<>();
        final Long2ObjectHashMap<Request> onReceiveQueue = new Long2ObjectHashMap<>();
        final long[] nextBits;
        final Long2LongHashMap fragmentOf = new Long2LongHashMap(-1);
        final Long2ObjectHashMap<Packet> inbound = new Long2ObjectHashMap<>();
        final ArrayDeque<Packet> control = new ArrayDeque<>();
        final org.pagefabric.sim.process.Completion controlWork;
        final LongArrayQueue freeHolding = new LongArrayQueue(Long.MIN_VALUE);
        final byte[] header = new byte[8];
        long nextWr = 1;
        long nextPacket = 1;

        Side(Rank rank, long poolVa) {
            this.rank = rank;
            this.kernel = rank.node().kernel();
            String n = "p2p-rank" + rank.id();
            fragmentFreed = new org.pagefabric.sim.process.Completion(n + ".fragment");
            controlWork = new org.pagefabric.sim.process.Completion(n + ".control");
            for (int i = 0; i < SEND_FRAGMENTS; i++) {
                freeFragments.offerLong(poolVa + i * slot);
            }
            eagerBuffers = poolVa + SEND_FRAGMENTS * slot;
            nextBits = new long[ranks];
            credits = new int[ranks];
            creditReturned = new org.pagefabric.sim.process.Completion[ranks];
            for (int p = 0; p < ranks; p++) {
                credits[p] = CREDITS;
                creditReturned[p] = new org.pagefabric.sim.process.Completion(n + ".credit" + p);
            }
        }

        long eagerBuffer(int peer, int i) {
            return eagerBuffers + ((long) peer * CREDITS + i) * slot;
        }
    }

    private final Job job;
    private final int ranks;
    private final long eagerLimit;
    private final long slot;
    private final CpuCopy copier;
    private final Side[] sides;
    private final Listener listener;
    private final boolean keyed;
    private long eagerMessages;
    private long rendezvousMessages;
    private long unexpectedMessages;
    private long copiedBytes;
    private long copyPs;

    /**
     * Messaging among {@code job}'s ranks with eager messages up to {@code eagerLimit} bytes; each
     * rank's fragments and eager buffers lie in its segment from offset {@code poolOffset}, which
     * must leave {@link #poolBytes} bytes.
     */
    public PointToPoint(Job job, long eagerLimit, long poolOffset, Listener listener) {
        this(job, eagerLimit, poolOffset, listener, false);
    }

    /**
     * Messaging as {@link #PointToPoint(Job, long, long, Listener)}, or, with {@code keyed}, over
     * a policy's own messaging stack that matches by match bits (Open-MX, as MX's match info): each
     * message is sent at once with bits unique to it, its envelope goes to the receiver's matching,
     * and a matched receive is posted with the message's bits; the stack's own eager and rendezvous
     * protocols carry the bytes, and no fragments or eager buffers are used.
     */
    public PointToPoint(Job job, long eagerLimit, long poolOffset, Listener listener, boolean keyed) {
        this.keyed = keyed;
        this.job = job;
        this.ranks = job.ranks().size();
        this.eagerLimit = eagerLimit;
        this.slot = slotBytes(eagerLimit);
        this.copier = new CpuCopy(job.cluster().profile());
        this.listener = listener;
        this.sides = new Side[ranks];
        for (int r = 0; r < ranks; r++) {
            Rank rank = job.rank(r);
            if (poolOffset + poolBytes(ranks, eagerLimit) > rank.segmentLength()) {
                throw new IllegalArgumentException("rank " + r + "'s segment of " + rank.segmentLength()
                        + " B leaves no room for the messaging pool at offset " + poolOffset);
            }
            sides[r] = new Side(rank, rank.segment() + poolOffset);
        }
    }

    /** Bytes of segment a rank of a job of {@code ranks} needs for fragments and eager buffers. */
    public static long poolBytes(int ranks, long eagerLimit) {
        return (SEND_FRAGMENTS + (long) ranks * CREDITS) * slotBytes(eagerLimit);
    }

    private static long slotBytes(long eagerLimit) {
        return (HEADER_BYTES + eagerLimit + 63) & -64L;
    }

    /** Posts every rank's eager buffers and starts its progress processes; call before the ranks run. */
    public void start() {
        for (Side s : sides) {
            new SimProcess(job.simulator(), s.rank.node(), "p2p-rank" + s.rank.id() + "-receives", ctx -> {
                for (int p = 0; p < ranks && !keyed; p++) {
                    if (p != s.rank.id()) {
                        for (int i = 0; i < CREDITS; i++) {
                            postEagerBuffer(ctx, s, p, i);
                        }
                    }
                }
                while (true) {
                    arrived(ctx, s, s.rank.awaitReceive(ctx));
                }
            }).daemon().start();
            new SimProcess(job.simulator(), s.rank.node(), "p2p-rank" + s.rank.id() + "-sends", ctx -> {
                while (true) {
                    sent(ctx, s, s.rank.awaitSend(ctx));
                }
            }).daemon().start();
            new SimProcess(job.simulator(), s.rank.node(), "p2p-rank" + s.rank.id() + "-control", ctx -> {
                while (true) {
                    Packet p;
                    while ((p = s.control.pollFirst()) == null) {
                        s.controlWork.reset();
                        ctx.await(s.controlWork);
                    }
                    control(ctx, s, p);
                }
            }).daemon().start();
        }
    }

    /**
     * Starts a send of {@code length} bytes at {@code va} of rank {@code from} to rank {@code dest}
     * with envelope {@code (tag, comm)}: an eager message is copied out before this returns (and
     * the request is then complete), a larger one sends its RTS.
     */
    public Request isend(ProcessContext ctx, int from, int dest, int tag, int comm, long va, long length) {
        Side s = sides[from];
        if (length == 0) {
            // no byte moves: a message of no elements names any buffer (NULL, often), the segment here
            va = s.rank.segment();
        }
        Request q = new Request(Request.SEND, from, dest, tag, comm, va, length);
        if (keyed) {
            Packet p = new Packet(KEYED, from, tag, comm, length, q, null);
            p.bits = ++s.nextBits[dest];
            Side d = sides[dest];
            Request r = d.matching.arrive(p, from, tag, comm);
            if (r != null) {
                p.receive = r;
                d.control.addLast(p);
                wake(d);
            }
            long wr = s.nextWr++;
            s.onSendQueue.put(wr, q);
            Rank me = s.rank;
            me.send(ctx, job.rank(dest), va - me.segment(), length, wr, p.bits);
            return q;
        }
        if (length <= eagerLimit) {
            eagerMessages++;
            transmit(ctx, s, dest, new Packet(EAGER, from, tag, comm, length, q, null), va);
            complete(q, Outcome.SUCCESS);
        } else {
            rendezvousMessages++;
            transmit(ctx, s, dest, new Packet(RTS, from, tag, comm, length, q, null), 0);
        }
        return q;
    }

    /**
     * Posts a receive of up to {@code length} bytes at {@code va} of rank {@code to} for
     * {@code (source, tag, comm)} (either may be a wildcard of {@link MatchingQueues}); a message
     * already there is taken at once.
     */
    public Request irecv(ProcessContext ctx, int to, int source, int tag, int comm, long va, long length) {
        return irecv(ctx, to, source, tag, comm, va, length, 0);
    }

    /**
     * {@link #irecv(ProcessContext, int, int, int, int, long, long)} with the caller's value kept
     * with the request before it can complete (a message already there completes it at once).
     */
    public Request irecv(ProcessContext ctx, int to, int source, int tag, int comm, long va, long length, long userData) {
        Side s = sides[to];
        if (length == 0) {
            va = s.rank.segment();
        }
        Request r = new Request(Request.RECEIVE, to, source, tag, comm, va, length);
        r.userData = userData;
        Packet p = s.matching.post(r, source, tag, comm);
        if (p != null) {
            take(ctx, s, r, p);
        }
        return r;
    }

    /** Cancels a receive no message has matched (MPI_Cancel); whether it was cancelled. */
    public boolean cancel(Request r) {
        if (r.done || !sides[r.rank].matching.cancel(r)) {
            return false;
        }
        r.done = true;
        r.signal.complete();
        return true;
    }

    /** Posts an RDMA write of rank {@code from}'s {@code [va, va+length)} to {@code remoteVa} of {@code peer}. */
    public Request write(ProcessContext ctx, int from, int peer, long va, long remoteVa, long length) {
        return oneSided(ctx, Request.WRITE, from, peer, va, remoteVa, length);
    }

    /** Posts an RDMA read of {@code peer}'s {@code [remoteVa, +length)} into rank {@code from}'s {@code va}. */
    public Request read(ProcessContext ctx, int from, int peer, long va, long remoteVa, long length) {
        return oneSided(ctx, Request.READ, from, peer, va, remoteVa, length);
    }

    private Request oneSided(ProcessContext ctx, int kind, int from, int peer, long va, long remoteVa, long length) {
        Side s = sides[from];
        Request q = new Request(kind, from, peer, 0, 0, va, length);
        long wr = s.nextWr++;
        s.onSendQueue.put(wr, q);
        Rank me = s.rank;
        Rank target = job.rank(peer);
        if (kind == Request.WRITE) {
            me.write(ctx, target, va - me.segment(), remoteVa - target.segment(), length, wr);
        } else {
            me.read(ctx, target, remoteVa - target.segment(), va - me.segment(), length, wr);
        }
        return q;
    }

    /** Waits until {@code q} completes. */
    public void await(ProcessContext ctx, Request q) {
        while (!q.done) {
            ctx.await(q.signal);
        }
    }

    /**
     * A core of rank {@code rank} copies {@code n} bytes from {@code from} to {@code to} in its
     * memory, as the library does; returns the time it took.
     */
    public long copy(int rank, long from, long to, long n) {
        return copy(sides[rank], from, to, n);
    }

    /** Messages sent eagerly so far. */
    public long eagerMessages() {
        return eagerMessages;
    }

    /** Messages sent by rendezvous so far. */
    public long rendezvousMessages() {
        return rendezvousMessages;
    }

    /** Eager messages that arrived before a receive matched them. */
    public long unexpectedMessages() {
        return unexpectedMessages;
    }

    /** Core time spent on those copies, over all ranks, picoseconds. */
    public long copyPs() {
        return copyPs;
    }

    /** Bytes copied by the cores into and out of fragments and unexpected buffers. */
    public long copiedBytes() {
        return copiedBytes;
    }

    // ------------------------------------------------------------------ the wire

    /** Sends a header (and an eager message's bytes from {@code payloadVa}) to {@code dest} through a fragment. */
    private void transmit(ProcessContext ctx, Side s, int dest, Packet p, long payloadVa) {
        while (s.credits[dest] == 0) {
            s.creditReturned[dest].reset();
            ctx.await(s.creditReturned[dest]);
        }
        s.credits[dest]--;
        while (s.freeFragments.isEmpty()) {
            s.fragmentFreed.reset();
            ctx.await(s.fragmentFreed);
        }
        long fragment = s.freeFragments.pollLong();
        long id = s.nextPacket++;
        writeHeader(s, fragment, id);
        long bytes = HEADER_BYTES;
        if (p.kind == EAGER && p.length > 0) {
            ctx.sleep(copy(s, payloadVa, fragment + HEADER_BYTES, p.length));
            bytes += p.length;
        }
        sides[dest].inbound.put(key(s.rank.id(), id), p);
        long wr = s.nextWr++;
        s.fragmentOf.put(wr, fragment);
        Rank target = job.rank(dest);
        s.rank.send(ctx, target, fragment - s.rank.segment(), bytes, wr);
    }

    private void postEagerBuffer(ProcessContext ctx, Side s, int peer, int i) {
        Rank me = s.rank;
        me.receive(ctx, job.rank(peer), s.eagerBuffer(peer, i) - me.segment(), slot, RECEIVE_WR | ((long) peer << 20) | i);
    }

    /** A fragment arrived in an eager buffer (or failed to). */
    private void arrived(ProcessContext ctx, Side s, CompletionEntry wc) {
        long wr = wc.wrId();
        Outcome status = wc.status();
        if ((wr & RECEIVE_WR) == 0) {
            throw new SimulationException("rank " + s.rank.id() + ": a receive completion for work request " + wr
                    + ", which the messaging layer did not post");
        }
        if (keyed) {
            Request r = s.onReceiveQueue.remove(wr);
            if (r == null) {
                throw new SimulationException("rank " + s.rank.id() + ": a receive completion for work request " + wr
                        + ", which the messaging layer did not post");
            }
            if (!status.ok()) {
                r.source = r.matched.rank;
                r.receivedTag = r.matched.tag;
                complete(r, status);
            } else {
                finishReceive(r, r.matched);
            }
            return;
        }
        int peer = (int) ((wr >>> 20) & 0xFFFFF);
        int i = (int) (wr & 0xFFFFF);
        if (!status.ok()) {
            throw new SimulationException("rank " + s.rank.id() + ": a message from rank " + peer + " arrived with "
                    + status + " under " + s.rank.policy().name());
        }
        long buffer = s.eagerBuffer(peer, i);
        long id = readHeader(s, buffer);
        Packet p = s.inbound.remove(key(peer, id));
        if (p == null) {
            throw new SimulationException("rank " + s.rank.id() + ": the eager buffer for rank " + peer + " holds a"
                    + " header (" + id + ") that rank never sent: a fragment went to the wrong buffer under "
                    + s.rank.policy().name());
        }
        switch (p.kind) {
            case EAGER -> {
                long from = buffer + HEADER_BYTES;
                if (p.length > 0 && !s.matching.hasPosted(p.source, p.tag, p.comm)) {
                    // copied out before it joins the unexpected queue, where a receive may take it
                    unexpectedMessages++;
                    p.holding = holding(ctx, s);
                    ctx.sleep(copy(s, from, p.holding, p.length));
                    from = p.holding;
                }
                Request r = s.matching.arrive(p, p.source, p.tag, p.comm);
                if (r != null) {
                    deliver(ctx, s, r, p, from);
                    if (p.holding != 0) {
                        s.freeHolding.offerLong(p.holding);
                        p.holding = 0;
                    }
                }
            }
            case RTS -> {
                Request r = s.matching.arrive(p, p.source, p.tag, p.comm);
                if (r != null) {
                    clearToSend(s, r, p);
                }
            }
            case CTS -> {
                p.send.writeTo = p.receive.va;
                s.control.addLast(p);
                wake(s);
            }
            case FIN -> finishReceive(p.receive, p.send);
            default -> throw new IllegalStateException("packet kind " + p.kind);
        }
        postEagerBuffer(ctx, s, peer, i);
        Side sender = sides[peer];
        if (sender.credits[s.rank.id()]++ == 0) {
            signal(sender.creditReturned[s.rank.id()]);
        }
    }

    /** A posted receive met a message that was there first. */
    private void take(ProcessContext ctx, Side s, Request r, Packet p) {
        if (p.kind == KEYED) {
            p.receive = r;
            postKeyed(ctx, s, p);
        } else if (p.kind == EAGER) {
            deliver(ctx, s, r, p, p.holding);
            if (p.holding != 0) {
                s.freeHolding.offerLong(p.holding);
            }
        } else {
            clearToSend(s, r, p);
        }
    }

    /** Copies an eager message from {@code from} into the receive's buffer and completes it. */
    private void deliver(ProcessContext ctx, Side s, Request r, Packet p, long from) {
        long n = Math.min(p.length, r.length);
        if (n > 0) {
            ctx.sleep(copy(s, from, r.va, n));
        }
        if (p.length > r.length) {
            r.truncatedFrom = p.length;
        }
        finishReceive(r, p.send, p.length);
    }

    /** A receive matched an RTS: the receiver's CTS names its buffer. */
    private void clearToSend(Side s, Request r, Packet rts) {
        if (rts.length > r.length) {
            r.truncatedFrom = rts.length;
        }
        Packet cts = new Packet(CTS, s.rank.id(), 0, 0, Math.min(rts.length, r.length), rts.send, r);
        s.control.addLast(cts);
        wake(s);
    }

    /** The control process's work: a CTS or FIN to send, or a rendezvous write to post. */
    private void control(ProcessContext ctx, Side s, Packet p) {
        if (p.kind == KEYED) {
            postKeyed(ctx, s, p);
        } else if (p.kind == CTS && p.source == s.rank.id()) {
            transmit(ctx, s, p.send.rank, p, 0);
        } else if (p.kind == CTS) {
            // the CTS came: this rank, the sender, writes its buffer into the receiver's
            Request q = p.send;
            long wr = s.nextWr++;
            s.onSendQueue.put(wr, q);
            q.matched = p.receive;
            Rank me = s.rank;
            Rank target = job.rank(q.peer);
            long n = p.length;
            if (n == 0) {
                s.onSendQueue.remove(wr);
                rendezvousWritten(s, q, Outcome.SUCCESS);
            } else {
                try {
                    me.write(ctx, target, q.va - me.segment(), q.writeTo - target.segment(), n, wr);
                } catch (OsException e) {
                    throw new OsException(e.errno(), "the rendezvous write of " + n + " B (tag " + q.tag + ") from rank "
                            + q.rank + " at 0x" + Long.toHexString(q.va) + " to rank " + q.peer + " at 0x"
                            + Long.toHexString(q.writeTo) + ": " + e.getMessage(), e.costPs());
                }
            }
        } else if (p.kind == FIN) {
            transmit(ctx, s, p.receive.rank, p, 0);
        } else {
            throw new IllegalStateException("control packet kind " + p.kind);
        }
    }

    /** Posts the matched receive of a keyed message with the message's bits. */
    private void postKeyed(ProcessContext ctx, Side s, Packet p) {
        Request r = p.receive;
        if (p.length > r.length) {
            r.truncatedFrom = p.length;
            finishReceive(r, p.send, 0);
            return;
        }
        r.matched = p.send;
        long wr = RECEIVE_WR | s.nextWr++;
        s.onReceiveQueue.put(wr, r);
        Rank me = s.rank;
        me.receive(ctx, job.rank(p.source), r.va - me.segment(), r.length, wr, p.bits);
    }

    /** A send-queue completion: a fragment sent, a rendezvous write done, or a one-sided operation. */
    private void sent(ProcessContext ctx, Side s, CompletionEntry wc) {
        long wr = wc.wrId();
        Outcome status = wc.status();
        long fragment = s.fragmentOf.remove(wr);
        if (fragment != -1) {
            s.freeFragments.offerLong(fragment);
            signal(s.fragmentFreed);
            if (!status.ok()) {
                throw new SimulationException("rank " + s.rank.id() + ": a message header or eager message completed"
                        + " with " + status + " under " + s.rank.policy().name());
            }
            return;
        }
        Request q = s.onSendQueue.remove(wr);
        if (q == null) {
            throw new SimulationException("rank " + s.rank.id() + ": a send completion for work request " + wr
                    + ", which the messaging layer did not post");
        }
        if (q.kind == Request.SEND && keyed) {
            complete(q, status);
        } else if (q.kind == Request.SEND) {
            rendezvousWritten(s, q, status);
        } else {
            complete(q, status);
        }
    }

    private void rendezvousWritten(Side s, Request q, Outcome status) {
        if (!status.ok()) {
            // the receiver's FIN never comes: fail both ends rather than leave the receive waiting
            complete(q, status);
            Request r = q.matched;
            r.source = q.rank;
            r.receivedTag = q.tag;
            r.matched = q;
            complete(r, status);
            return;
        }
        complete(q, Outcome.SUCCESS);
        s.control.addLast(new Packet(FIN, s.rank.id(), 0, 0, 0, q, q.matched));
        wake(s);
    }

    private void finishReceive(Request r, Request send) {
        finishReceive(r, send, send.length);
    }

    private void finishReceive(Request r, Request send, long length) {
        r.source = send.rank;
        r.receivedTag = send.tag;
        r.received = Math.min(length, r.length);
        r.matched = send;
        complete(r, Outcome.SUCCESS);
    }

    private void complete(Request q, Outcome status) {
        if (q.done) {
            return;
        }
        q.done = true;
        q.status = status;
        if (listener != null) {
            listener.completed(q);
        }
        q.signal.complete();
    }

    private static void wake(Side s) {
        signal(s.controlWork);
    }

    private static void signal(org.pagefabric.sim.process.Completion c) {
        if (!c.isDone()) {
            c.complete();
        }
    }

    // ------------------------------------------------------------------ memory

    /** An unexpected buffer of the rank's own memory, mapped as the runtime mallocs one. */
    private long holding(ProcessContext ctx, Side s) {
        if (s.freeHolding.isEmpty()) {
            Rank me = s.rank;
            MapResult m = s.kernel.mmap(me.process(), 0, HOLDING_CHUNK * slot, Prot.READ_WRITE, MapFlags.NONE);
            if (m.address() == 0) {
                throw new SimulationException("rank " + me.id() + ": no memory for unexpected messages");
            }
            ctx.sleep(m.costPs());
            for (int i = 0; i < HOLDING_CHUNK; i++) {
                s.freeHolding.offerLong(m.address() + i * slot);
            }
        }
        return s.freeHolding.pollLong();
    }

    private long copy(Side s, long from, long to, long n) {
        copiedBytes += n;
        long ps = copier.copy(s.kernel, s.rank.process(), from, s.rank.process(), to, n);
        copyPs += ps;
        return ps;
    }

    private static void writeHeader(Side s, long va, long id) {
        for (int b = 0; b < 8; b++) {
            s.header[b] = (byte) (id >>> (8 * b));
        }
        s.kernel.write(s.rank.process(), va, s.header, 0, 8);
    }

    private static long readHeader(Side s, long va) {
        s.kernel.read(s.rank.process(), va, s.header, 0, 8);
        long id = 0;
        for (int b = 0; b < 8; b++) {
            id |= (s.header[b] & 0xFFL) << (8 * b);
        }
        return id;
    }

    private static long key(int peer, long id) {
        return ((long) peer << 44) ^ id;
    }
}
