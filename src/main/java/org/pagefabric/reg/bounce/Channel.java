package org.pagefabric.reg.bounce;

import org.agrona.collections.IntArrayQueue;
import org.pagefabric.endpoint.Endpoint;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.hw.nic.QueuePair;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;

/**
 * The bounce buffers from one rank to one peer: which buffer indices are free (each one is an
 * outgoing buffer here and the matching incoming buffer there), the queue pair the pieces
 * travel on, and per buffer the piece it carries now.
 */
final class Channel {
    /** One put or send in pieces: it completes when its last piece is copied out at the target. */
    static final class Transfer {
        final long wrId;
        final long bytes;
        /** Whether this is a two-sided message, matched to a receive at the target, rather than a put. */
        final boolean message;
        int remaining;
        CompletionStatus status = CompletionStatus.SUCCESS;

        Transfer(long wrId, long bytes, int pieces, boolean message) {
            this.wrId = wrId;
            this.bytes = bytes;
            this.remaining = pieces;
            this.message = message;
        }
    }

    /** One buffer index and the piece in it. */
    static final class Slot {
        final int index;
        /** Completed by the sender once the piece is copied in and its write posted. */
        final Completion posted;
        /** Completed with the write's status ordinal once its completion is reaped. */
        final Completion written;
        /** Completed when the target copied out a piece it had to park for want of a receive. */
        final Completion copied;
        Transfer transfer;
        /** Where the piece goes: the destination address of a put, the offset in the message of a send. */
        long destination;
        long length;

        Slot(String name, int index) {
            this.index = index;
            this.posted = new Completion(name + ".posted");
            this.written = new Completion(name + ".written");
            this.copied = new Completion(name + ".copied");
        }
    }

    final Endpoint from;
    final Endpoint to;
    final QueuePair qp;
    final Slot[] slots;
    private final IntArrayQueue free = new IntArrayQueue();
    private Completion freed;

    Channel(Endpoint from, Endpoint to, QueuePair qp, int buffers) {
        this.from = from;
        this.to = to;
        this.qp = qp;
        this.slots = new Slot[buffers];
        for (int b = 0; b < buffers; b++) {
            slots[b] = new Slot("rank" + from.id() + ".bounce" + to.id() + "." + b, b);
            free.addInt(b);
        }
    }

    /** A free buffer index, waiting until a piece in flight is copied out if none is free. */
    int acquire(ProcessContext ctx) {
        while (free.isEmpty()) {
            if (freed == null) {
                freed = new Completion("rank" + from.id() + ".bounce" + to.id() + ".freed");
            }
            ctx.await(freed);
        }
        return free.removeInt();
    }

    /** Returns buffer {@code b}: its piece is at its destination. */
    void release(int b) {
        free.addInt(b);
        if (freed != null) {
            Completion c = freed;
            freed = null;
            c.complete();
        }
    }
}
