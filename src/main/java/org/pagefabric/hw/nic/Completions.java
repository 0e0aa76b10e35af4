package org.pagefabric.hw.nic;

import java.util.ArrayDeque;
import org.pagefabric.hw.net.CompletionStatus;
import org.pagefabric.sim.Simulator;

/**
 * The NIC's completion entries: reports a send queue's finished messages in posting order, as
 * verbs require even when a later write is acknowledged before an earlier read's answer, and
 * writes each entry into its completion queue {@link NicCosts#completionPs()} later.
 *
 * <p>Entries wait in FIFOs rather than in event arguments: every entry lands a fixed delay after
 * it was written (or after its placement reached memory, in order), so the FIFO order is the
 * event order and no event carries an object.
 */
final class Completions {
    private final Nic nic;
    private final Simulator sim;
    private final NicCosts costs;
    private final ArrayDeque<WorkCompletion> completing = new ArrayDeque<>();
    private final ArrayDeque<CompletionQueue> completingCq = new ArrayDeque<>();
    /** Completions of timed placements, in order: their times never decrease (the translation stage keeps order). */
    private final ArrayDeque<WorkCompletion> landing = new ArrayDeque<>();
    private final ArrayDeque<CompletionQueue> landingCq = new ArrayDeque<>();
    /** Waiters for the completion of requests posted with one ({@link QueuePair#postSend(WorkRequest, org.pagefabric.sim.process.Completion)}). */
    private final ArrayDeque<org.pagefabric.sim.process.Completion> notifying = new ArrayDeque<>();
    private final ArrayDeque<CompletionStatus> notifyingStatus = new ArrayDeque<>();

    Completions(Nic nic, NicCosts costs) {
        this.nic = nic;
        this.sim = nic.simulator();
        this.costs = costs;
    }

    /** The transport has finished message {@code id} of {@code qp} (sent, failed or flushed). */
    void transportDone(QueuePair qp, long id, CompletionStatus status) {
        QueuePair.Outgoing out = qp.outgoing.get(id);
        if (out == null) {
            return;
        }
        out.transportDone = true;
        if (status != CompletionStatus.SUCCESS) {
            out.status = status;
            qp.error = true;
        }
        if (out.wr == null) {
            qp.outgoing.remove(id); // a response we sent: no completion on this side
            return;
        }
        completeInOrder(qp);
    }

    /** Reports finished send-queue entries from the head, so completions keep posting order. */
    void completeInOrder(QueuePair qp) {
        while (!qp.sendQueue.isEmpty()) {
            QueuePair.Outgoing head = qp.sendQueue.peekFirst();
            boolean failed = head.status != CompletionStatus.SUCCESS;
            if (!failed && (!head.transportDone || (head.needsAnswer() && !head.answered))) {
                return;
            }
            qp.sendQueue.pollFirst();
            qp.outgoing.remove(head.messageId);
            if (head.notify != null) {
                notifying.addLast(head.notify);
                notifyingStatus.addLast(head.status);
                nic.scheduleEvent(costs.completionPs(), Nic.NOTIFIED, 0);
            }
            if (head.wr.signaled() || failed) {
                long bytes = failed ? 0 : head.length;
                complete(new WorkCompletion(head.wr.wrId(), head.wr.opcode(), head.status, bytes, qp.qpn(),
                        sim.now() + costs.completionPs(), head.value), qp.sendCq());
            }
        }
    }

    /** Writes a completion entry, which lands after {@link NicCosts#completionPs()}. */
    void complete(WorkCompletion wc, CompletionQueue cq) {
        completing.addLast(wc);
        completingCq.addLast(cq);
        nic.scheduleEvent(costs.completionPs(), Nic.COMPLETE, 0);
    }

    /**
     * Writes the completion of a placement that reaches memory at {@code readyAt} (after its
     * IOMMU translation): it lands {@link NicCosts#completionPs()} after that.
     */
    void completeAfter(long readyAt, WorkCompletion wc, CompletionQueue cq) {
        landing.addLast(wc);
        landingCq.addLast(cq);
        nic.scheduleEvent(readyAt - sim.now() + costs.completionPs(), Nic.LANDED, 0);
    }

    /** A {@link Nic#COMPLETE} event: the oldest written entry lands in its queue. */
    void written() {
        completingCq.pollFirst().push(completing.pollFirst());
    }

    /** A {@link Nic#NOTIFIED} event: the oldest waiter learns its request's status. */
    void notified() {
        notifying.pollFirst().complete(notifyingStatus.pollFirst().ordinal());
    }

    /** A {@link Nic#LANDED} event: the oldest timed placement's entry lands in its queue. */
    void landed() {
        landingCq.pollFirst().push(landing.pollFirst());
    }
}
