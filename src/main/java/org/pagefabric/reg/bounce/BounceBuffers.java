package org.pagefabric.reg.bounce;

import org.pagefabric.config.Profile;
import org.pagefabric.endpoint.ActiveMessages;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.endpoint.JobLayout;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.hw.nic.CompletionQueue;
import org.pagefabric.hw.nic.Nic;
import org.pagefabric.hw.nic.Opcode;
import org.pagefabric.hw.nic.QpType;
import org.pagefabric.hw.nic.QueuePair;
import org.pagefabric.hw.nic.WorkCompletion;
import org.pagefabric.hw.nic.WorkRequest;
import org.pagefabric.reg.PerRank;
import org.pagefabric.reg.PolicyRefusal;
import org.pagefabric.reg.RegistrationPolicy;
import org.pagefabric.reg.pinning.CpuCopy;
import org.pagefabric.reg.pinning.RangePinner;
import org.pagefabric.sim.SimulationException;
import org.pagefabric.sim.process.ProcessContext;
import org.pagefabric.sim.process.SimProcess;

/**
 * Bounce buffers (004 §3.3): every rank pins and registers a fixed set of buffers once, and no
 * user buffer is ever registered. A put copies its source into an outgoing bounce buffer on the
 * initiator's CPU, RDMA-writes it into the target's matching incoming buffer, and the target's
 * CPU copies it out to the destination, in an active-message handler, before the put
 * completes. A put larger than a buffer goes in pieces, as many in flight as there are buffers
 * per peer; the initiator waits for a free buffer when all carry pieces.
 *
 * <p>Two-sided by nature: the target's processor takes part in every put, and the bytes cross
 * memory three times. Sends go the same way, the target's CPU copying each message into the
 * oldest receive posted for its source. A message that arrives before its receive is an
 * unexpected one: it stays in its bounce buffers, the handler returns at once so the target goes
 * on serving its other peers, and the receiving rank copies it out when it posts the receive,
 * then hands the buffer back to the sender. Waiting in the handler instead would stall every
 * other peer's messages behind one unposted receive, a deadlock as soon as two ranks each wait
 * for a message the other's handler holds back. Gets do not go through bounce buffers here; the
 * policy refuses them.
 */
public final class BounceBuffers implements RegistrationPolicy {
    /** The command-line name. */
    public static final String NAME = "bounce";
    /** Active-message handler that copies a piece out of an incoming buffer at the target. */
    static final int COPY_OUT_HANDLER = 22;
    /** Active-message handler that copies a piece of a message into the matching receive at the target. */
    static final int DELIVER_HANDLER = 23;
    /** Active-message handler that frees a buffer whose parked piece the receiver copied out. */
    static final int RETURN_HANDLER = 24;
    /** What the deliver handler answers when it copied the piece. */
    private static final long DELIVERED = 0;
    /** What it answers when the piece waits in its buffer for a receive. */
    private static final long PARKED = 1;

    private final Profile profile;
    private final long bufferSize;
    private final int buffers;
    private final CpuCopy copier;
    private final PerRank<RankState> states = new PerRank<>();
    private ActiveMessages messages;
    private JobLayout job;

    /** One rank's bounce region, its queue pairs to every peer and its channels. */
    private static final class RankState {
        final Endpoint rank;
        final BounceRegion region;
        final CompletionQueue cq;
        final QueuePair[] qps;
        final Channel[] channels;
        /** Receives posted for each source. */
        final Mailbox[] mailboxes;

        RankState(Endpoint rank, BounceRegion region, int ranks) {
            this.rank = rank;
            this.region = region;
            this.cq = new CompletionQueue(rank.node().name() + ".rank" + rank.id() + ".bounce.cq", 1 << 14);
            this.qps = new QueuePair[ranks];
            this.channels = new Channel[ranks];
            this.mailboxes = new Mailbox[ranks];
            for (int peer = 0; peer < ranks; peer++) {
                mailboxes[peer] = new Mailbox();
            }
        }
    }

    /** The policy with buffer sizes and copy costs from {@code profile}. */
    public BounceBuffers(Profile profile) {
        this.profile = profile;
        this.bufferSize = profile.size(BounceParameters.BUFFER_SIZE);
        this.buffers = profile.intCount(BounceParameters.BUFFERS);
        this.copier = new CpuCopy(profile);
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Maps, pins and registers the rank's bounce buffers: the only registration of the run. */
    @Override
    public long setUp(Endpoint rank) {
        int ranks = rank.jobSize();
        BounceRegion region = new BounceRegion(rank, new RangePinner(profile, rank), ranks, buffers, bufferSize);
        states.put(rank, new RankState(rank, region, ranks));
        return region.costPs();
    }

    /** Connects the ranks' bounce queue pairs, starts their completion reapers and the copy-out handler. */
    @Override
    public void start(JobLayout job) {
        this.job = job;
        int n = job.endpoints().size();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                RankState a = states.get(i);
                RankState b = states.get(j);
                a.qps[j] = a.rank.node().nic().createQp(a.rank.pd(), QpType.RC, a.cq, a.cq);
                b.qps[i] = b.rank.node().nic().createQp(b.rank.pd(), QpType.RC, b.cq, b.cq);
                Nic.connect(a.qps[j], b.qps[i], job.cluster().transport());
            }
        }
        for (int i = 0; i < n; i++) {
            RankState s = states.get(i);
            new SimProcess(job.simulator(), s.rank.node(), "rank" + i + "-bounce-reaper", ctx -> reap(ctx, s)).daemon()
                    .start();
        }
        messages = ActiveMessages.attach(job);
        messages.register(COPY_OUT_HANDLER, (ctx, target, source, b, destination, length, a3) ->
                copyOut(ctx, target, source, (int) b, destination, length));
        messages.register(DELIVER_HANDLER, (ctx, target, source, b, offset, length, total) ->
                deliver(ctx, target, source, (int) b, offset, length, total));
        messages.register(RETURN_HANDLER, (ctx, target, source, b, a1, a2, a3) -> {
            state(target).channels[source.id()].slots[(int) b].copied.complete();
            return 0;
        });
    }

    /**
     * Carries the put through bounce buffers: for each piece, waits for a free buffer, copies
     * the piece in and posts its write; the rest (the write's completion, the copy-out at the
     * target, the put's completion) follows in the channel's per-buffer processes.
     */
    @Override
    public boolean put(ProcessContext ctx, Endpoint initiator, Endpoint target, long localVa, long remoteVa, long length,
                       long wrId) {
        if (length == 0) {
            initiator.completeSend(wrId, Opcode.RDMA_WRITE, CompletionStatus.SUCCESS, 0, ctx.now());
            return true;
        }
        stage(ctx, initiator, target, localVa, remoteVa, new Channel.Transfer(wrId, length,
                (int) Math.ceilDiv(length, bufferSize), false));
        return true;
    }

    /**
     * Carries the send through bounce buffers like a put; at the target, each piece is copied
     * into the oldest receive posted for this source, at its offset in the message.
     */
    @Override
    public boolean send(ProcessContext ctx, Endpoint initiator, Endpoint target, long localVa, long length, long wrId) {
        if (length == 0) {
            // nothing to stage: the target's CPU only has to match the empty message to a receive
            messages.request(ctx, initiator, target, DELIVER_HANDLER, -1, 0, 0, 0);
            initiator.completeSend(wrId, Opcode.SEND, CompletionStatus.SUCCESS, 0, ctx.now());
            return true;
        }
        stage(ctx, initiator, target, localVa, 0, new Channel.Transfer(wrId, length,
                (int) Math.ceilDiv(length, bufferSize), true));
        return true;
    }

    /**
     * Holds the receive for messages from {@code source} (nothing is posted to the NIC), then
     * copies into it, on this rank's CPU, the pieces that arrived before it, handing each buffer
     * back to the sender.
     */
    @Override
    public boolean receive(ProcessContext ctx, Endpoint rank, Endpoint source, long va, long length, long wrId) {
        RankState s = state(rank);
        Mailbox box = s.mailboxes[source.id()];
        box.post(va, length, wrId);
        box.draining(true);
        Mailbox.Parked p;
        while ((p = box.nextParked()) != null) {
            copyIn(ctx, s, rank, source, box, p.buffer(), p.offset(), p.length(), p.total());
            if (p.buffer() >= 0) {
                messages.request(ctx, rank, source, RETURN_HANDLER, p.buffer(), 0, 0, 0);
            }
        }
        box.draining(false);
        return true;
    }

    /**
     * For each piece of a transfer: waits for a free buffer, copies the piece in and posts its
     * write; the rest follows in the channel's per-buffer processes.
     *
     * @param destination the put's destination, or 0 for a message (pieces then carry their offsets)
     */
    private void stage(ProcessContext ctx, Endpoint initiator, Endpoint target, long localVa, long destination,
                       Channel.Transfer transfer) {
        RankState from = state(initiator);
        RankState to = state(target);
        Channel ch = channel(from, target);
        long length = transfer.bytes;
        for (long off = 0; off < length; ) {
            long n = Math.min(bufferSize, length - off);
            int b = ch.acquire(ctx);
            long staging = from.region.outgoing(target.id(), b);
            ctx.sleep(copier.copy(initiator.node().kernel(), initiator.process(), localVa + off, initiator.process(),
                    staging, n));
            Channel.Slot slot = ch.slots[b];
            slot.transfer = transfer;
            slot.destination = destination + off;
            slot.length = n;
            ch.qp.postSend(WorkRequest.write(((long) target.id() << 32) | b, staging, n, from.region.lkey(),
                    to.region.incoming(initiator.id(), b), to.region.rkey()));
            slot.posted.complete();
            off += n;
        }
    }

    /** The channel from {@code from} to {@code target}, made with its buffer processes on first use. */
    private Channel channel(RankState from, Endpoint target) {
        Channel ch = from.channels[target.id()];
        if (ch == null) {
            ch = new Channel(from.rank, target, from.qps[target.id()], buffers);
            from.channels[target.id()] = ch;
            for (Channel.Slot slot : ch.slots) {
                Channel c = ch;
                new SimProcess(job.simulator(), from.rank.node(), "rank" + from.rank.id() + "-bounce" + target.id() + "-"
                        + slot.index, ctx -> carry(ctx, c, slot)).daemon().start();
            }
        }
        return ch;
    }

    /**
     * One buffer's process: after each write of a piece completes, asks the target to copy the
     * piece out and waits for it, frees the buffer, and completes the put after its last piece.
     */
    private void carry(ProcessContext ctx, Channel ch, Channel.Slot slot) {
        while (true) {
            ctx.await(slot.posted);
            slot.posted.reset();
            int status = (int) ctx.await(slot.written);
            slot.written.reset();
            Channel.Transfer t = slot.transfer;
            slot.transfer = null;
            if (status != CompletionStatus.SUCCESS.ordinal()) {
                t.status = CompletionStatus.values()[status];
            } else if (t.message) {
                if (messages.request(ctx, ch.from, ch.to, DELIVER_HANDLER, slot.index, slot.destination, slot.length,
                        t.bytes) == PARKED) {
                    ctx.await(slot.copied);
                    slot.copied.reset();
                }
            } else {
                messages.request(ctx, ch.from, ch.to, COPY_OUT_HANDLER, slot.index, slot.destination, slot.length, 0);
            }
            ch.release(slot.index);
            if (--t.remaining == 0) {
                ch.from.completeSend(t.wrId, t.message ? Opcode.SEND : Opcode.RDMA_WRITE, t.status, t.bytes, ctx.now());
            }
        }
    }

    /** Hands each completed write of the rank's bounce queue pairs to its buffer's process. */
    private void reap(ProcessContext ctx, RankState s) {
        while (true) {
            WorkCompletion wc;
            while ((wc = s.cq.poll()) == null) {
                ctx.await(s.cq.notEmpty());
            }
            int peer = (int) (wc.wrId() >>> 32);
            int b = (int) wc.wrId();
            s.channels[peer].slots[b].written.complete(wc.status().ordinal());
        }
    }

    /** The target's handler: copies a piece from the incoming buffer to its destination on this CPU. */
    private long copyOut(ProcessContext ctx, Endpoint target, Endpoint source, int b, long destination, long length) {
        RankState s = state(target);
        ctx.sleep(copier.copy(target.node().kernel(), target.process(), s.region.incoming(source.id(), b),
                target.process(), destination, length));
        return 0;
    }

    /**
     * The target's handler for a piece of a message: copies it into the oldest receive posted for
     * {@code source} and completes the receive with the message's last byte, or, when the piece
     * must wait for a receive, leaves it in its buffer and says so. Buffer {@code b} of -1 is an
     * empty message.
     */
    private long deliver(ProcessContext ctx, Endpoint target, Endpoint source, int b, long offset, long length, long total) {
        RankState s = state(target);
        Mailbox box = s.mailboxes[source.id()];
        if (box.mustPark()) {
            box.park(b, offset, length, total);
            return PARKED;
        }
        copyIn(ctx, s, target, source, box, b, offset, length, total);
        return DELIVERED;
    }

    /** Copies a piece from incoming buffer {@code b} into the oldest receive, completing it with its last byte. */
    private void copyIn(ProcessContext ctx, RankState s, Endpoint target, Endpoint source, Mailbox box, int b,
                        long offset, long length, long total) {
        Mailbox.Posted r = box.oldest();
        if (total > r.length) {
            throw new SimulationException("rank " + target.id() + ": a message of " + total + " B from rank "
                    + source.id() + " does not fit the receive of " + r.length + " B posted for it");
        }
        if (b >= 0) {
            ctx.sleep(copier.copy(target.node().kernel(), target.process(), s.region.incoming(source.id(), b),
                    target.process(), r.va + offset, length));
            r.copied += length;
        }
        if (r.copied == total) {
            box.retire();
            target.completeReceive(r.wrId, CompletionStatus.SUCCESS, total, ctx.now());
        }
    }

    /** Refused: every operation but a get goes through bounce buffers (see {@link #put}, {@link #send}). */
    @Override
    public Access local(ProcessContext ctx, Endpoint rank, long va, long length) {
        throw new PolicyRefusal(NAME + " carries puts, sends and receives through bounce buffers;"
                + " gets through bounce buffers are not modelled");
    }

    /** Refused: gets through bounce buffers are not modelled. */
    @Override
    public Access remote(ProcessContext ctx, Endpoint initiator, Endpoint target, long va, long length) {
        throw new PolicyRefusal(NAME + " carries puts, sends and receives through bounce buffers;"
                + " gets through bounce buffers are not modelled");
    }

    /** The bounce buffers: pinned once, never more. */
    @Override
    public long pinnedBytes(Endpoint rank) {
        RankState s = states.get(rank);
        return s == null ? 0 : s.region.pinnedBytes();
    }

    private RankState state(Endpoint rank) {
        RankState s = states.get(rank);
        if (s == null) {
            throw new IllegalStateException("rank " + rank.id() + " was not set up by " + NAME);
        }
        return s;
    }
}
