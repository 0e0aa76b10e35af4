package org.pagefabric.comm;

import org.pagefabric.hw.nic.AddressHandle;
import org.pagefabric.hw.nic.CompletionQueue;
import org.pagefabric.hw.nic.QueuePair;
import org.pagefabric.hw.nic.WorkCompletion;
import org.pagefabric.hw.nic.WorkRequest;
import org.pagefabric.sim.process.ProcessContext;

/**
 * An unreliable-datagram queue pair a rank opens for itself beside the ones its job connects, as
 * a raw verbs application (a packet generator) does: it sends or receives, with a completion queue
 * of its own, and its work requests name buffers by a key the application got from
 * {@link Rank#segmentKeyForRawQueues()}; no registration policy takes part. Nothing is allocated
 * per datagram but the work request the NIC consumes.
 */
public final class DatagramQueue {
    private final String nodeName;
    private final QueuePair qp;
    private final CompletionQueue done;
    private final CompletionEntry view = new CompletionEntry();
    private AddressHandle destination;

    /**
     * Opens the queue pair on {@code rank}'s NIC: a sending queue completes its sends in a queue
     * named {@code <node>.<label>.txcq}, a receiving one its receives in {@code <node>.<label>.rxcq},
     * each of {@code depth} entries; datagrams carry at most {@code payload} bytes.
     */
    DatagramQueue(Rank rank, String label, int depth, int payload, boolean sending) {
        this.nodeName = rank.node().name();
        this.done = new CompletionQueue(nodeName + "." + label + (sending ? ".txcq" : ".rxcq"), depth);
        CompletionQueue unused = new CompletionQueue(nodeName + "." + label + ".unused", 1);
        this.qp = rank.node().nic().createUdQp(rank.endpoint().pd(), sending ? done : unused, sending ? unused : done,
                payload);
    }

    /** Addresses every later {@link #send} to {@code receiver}'s queue pair on its node. */
    public void sendTo(Rank receiverRank, DatagramQueue receiver) {
        destination = new AddressHandle(receiverRank.node().id(), receiver.qp.qpn());
    }

    /** Posts a send of {@code length} bytes at {@code va} (local key {@code lkey}) to the queue {@link #sendTo} named. */
    public void send(long wrId, long va, int length, int lkey) {
        qp.postSend(WorkRequest.send(wrId, va, length, lkey), destination);
    }

    /** Posts a receive buffer of {@code length} bytes at {@code va} (local key {@code lkey}). */
    public void receive(long wrId, long va, int length, int lkey) {
        qp.postRecv(WorkRequest.recv(wrId, va, length, lkey));
    }

    /**
     * Waits for the queue's next completion; the view it returns is refilled by the next call, so
     * read it first.
     */
    public CompletionEntry await(ProcessContext ctx) {
        WorkCompletion wc;
        while ((wc = done.poll()) == null) {
            ctx.await(done.notEmpty());
        }
        return view.show(wc);
    }
}
