package org.pagefabric.hw.net;

import static org.pagefabric.hw.net.SenderWindow.ACKED;
import static org.pagefabric.hw.net.SenderWindow.FAULT_WAIT;
import static org.pagefabric.hw.net.SenderWindow.QUEUED;
import static org.pagefabric.hw.net.SenderWindow.REISSUING;
import static org.pagefabric.hw.net.SenderWindow.RNR_WAIT;
import static org.pagefabric.hw.net.SenderWindow.SENDING;
import static org.pagefabric.hw.net.SenderWindow.SENT;

import org.pagefabric.sim.Band;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.stat.Counter;

/**
 * Selective recovery of a {@link ReliableSender}: each block has its own time-out, transmission
 * attempt (carried in {@link Packet#attempt}, so a NACK about a superseded attempt is moot) and
 * retry, RNR and explicit-request counts; a lost, corrupt or refused block is queued alone for retransmission. A
 * PAGE_FAULT NACK (PART) parks the block until the receiver asks for it again, or until the
 * fault-wait time-out if one is configured. With a {@link TransportConfig#reissuePs} a block to
 * be sent again first waits for the block issuer, which issues one block at a time.
 *
 * <p>Its timers are the sender's events (the sender stays the one handler of its connection);
 * the sender dispatches them here.
 */
final class SelectiveRepeat {
    private final ReliableSender sender;
    private final Simulator sim;
    private final TransportConfig cfg;
    private final SenderWindow win;
    private final Counter timeouts;
    /** Blocks waiting for retransmission, oldest first (entries go stale harmlessly). */
    private final RetransmissionQueue queue;
    /** When the block issuer has issued every block handed to it so far. */
    private long issuerFree;

    SelectiveRepeat(ReliableSender sender, Simulator sim, TransportConfig cfg, SenderWindow win, Counter timeouts) {
        this.sender = sender;
        this.sim = sim;
        this.cfg = cfg;
        this.win = win;
        this.timeouts = timeouts;
        this.queue = new RetransmissionQueue(win.size);
    }

    /** The oldest block waiting for retransmission that still needs it, or -1. */
    long nextQueued() {
        while (!queue.isEmpty()) {
            long b = queue.poll();
            if (win.contains(b) && win.state[win.slot(b)] == QUEUED) {
                return b;
            }
        }
        return -1;
    }

    /** The last packet of block {@code bsn} (slot {@code s}) has left: arm its time-out. */
    void blockLeft(long bsn, int s, long delay) {
        // A block NACKed with PAGE_FAULT while still sending stays waiting for its request.
        if (win.state[s] == SENDING) {
            win.state[s] = SENT;
            win.timer[s] = sim.schedule(delay, Band.TIMEOUT, sender, ReliableSender.BLOCK_TIMEOUT, bsn);
        }
    }

    /** An ACK: of a whole block, of progress within one, and cumulatively of the blocks before it. */
    void onAck(Packet p) {
        long b = p.bsn;
        if (p.blockComplete) {
            sender.ackBlock(b);
        } else if (win.contains(b) && win.state[win.slot(b)] == SENT && win.attempt[win.slot(b)] == p.attempt) {
            // Progress within the block: the receiver is alive, restart the time-out.
            int s = win.slot(b);
            win.cancelTimer(s);
            win.timer[s] = sim.schedule(cfg.retransmitTimeoutPs(), Band.TIMEOUT, sender, ReliableSender.BLOCK_TIMEOUT, b);
        }
        long upTo = Math.min(p.cumulative, win.high);
        for (long x = win.base; x < upTo; x++) {
            sender.ackBlock(x);
        }
    }

    /** A NACK about block {@code p.bsn}. */
    void onNack(Packet p, NackReason reason) {
        long b = p.bsn;
        if (!win.contains(b)) {
            return;
        }
        int s = win.slot(b);
        byte st = win.state[s];
        // A NACK about a transmission already superseded, or a block not on the wire, is moot.
        if (p.attempt != win.attempt[s] || (st != SENDING && st != SENT)) {
            return;
        }
        win.cancelTimer(s);
        switch (reason) {
            case PAGE_FAULT -> {
                // PART: the receiver will ask for the block once the page is in; keep sending
                // the rest of it (the hardware has it in flight) but arm no time-out.
                win.state[s] = FAULT_WAIT;
                if (cfg.faultWaitTimeoutPs() > 0) {
                    win.timer[s] = sim.schedule(cfg.faultWaitTimeoutPs(), Band.TIMEOUT, sender,
                            ReliableSender.FAULT_WAIT_EXPIRED, b);
                }
            }
            case RECEIVER_NOT_READY -> {
                if (++win.rnr[s] > cfg.rnrRetryLimit()) {
                    sender.fail(win.msn[s], CompletionStatus.RNR_RETRY_EXCEEDED);
                    return;
                }
                sender.abandon(b);
                win.state[s] = RNR_WAIT;
                win.timer[s] = sim.schedule(cfg.rnrBackoffPs(), Band.TIMEOUT, sender, ReliableSender.RNR_RESUME, b);
            }
            case SEQUENCE, CORRUPT -> retry(b, s);
            case REMOTE_ACCESS -> sender.fail(win.msn[s], CompletionStatus.REMOTE_ACCESS_ERROR);
        }
    }

    /**
     * The receiver asks for block {@code b} again (PART's fault handler). The retransmission counts
     * against the ERR retry limit, not the time-out one: as with an RNR NAK, the receiver is alive
     * and wants the block, and under memory pressure it may ask many times before a page stays in.
     */
    void onRetransmissionRequest(long b) {
        if (!win.contains(b)) {
            return;
        }
        int s = win.slot(b);
        if (win.state[s] == ACKED || win.state[s] == QUEUED || win.state[s] == REISSUING) {
            return;
        }
        win.cancelTimer(s);
        if (cfg.errRetriesExhausted(++win.errs[s])) {
            sender.fail(win.msn[s], CompletionStatus.RNR_RETRY_EXCEEDED);
            return;
        }
        sender.abandon(b);
        requeue(b);
    }

    /** The block issuer has issued block {@code b} again: it joins the retransmission queue. */
    void reissued(long b) {
        if (!win.contains(b)) {
            return;
        }
        int s = win.slot(b);
        win.timer[s] = Simulator.NO_EVENT;
        if (win.state[s] == REISSUING) {
            win.state[s] = QUEUED;
            queue.add(b);
            sender.kick();
        }
    }

    /** Block {@code b}'s time-out fired. */
    void blockTimeout(long b) {
        if (!win.contains(b)) {
            return;
        }
        int s = win.slot(b);
        win.timer[s] = Simulator.NO_EVENT;
        if (win.state[s] != SENT) {
            return;
        }
        timeouts.increment();
        retry(b, s);
    }

    /** Block {@code b}'s RNR back-off has ended: send it again. */
    void rnrResume(long b) {
        if (!win.contains(b)) {
            return;
        }
        int s = win.slot(b);
        win.timer[s] = Simulator.NO_EVENT;
        if (win.state[s] == RNR_WAIT) {
            requeue(b);
        }
    }

    /** No retransmission request came for block {@code b}'s PAGE_FAULT NACK: count a time-out and retry. */
    void faultWaitExpired(long b) {
        if (!win.contains(b)) {
            return;
        }
        int s = win.slot(b);
        win.timer[s] = Simulator.NO_EVENT;
        if (win.state[s] == FAULT_WAIT) {
            timeouts.increment();
            retry(b, s);
        }
    }

    /** Counts a retry against the limit and queues the block again. */
    private void retry(long b, int s) {
        if (++win.retries[s] > cfg.retryLimit()) {
            sender.fail(win.msn[s], CompletionStatus.RETRY_EXCEEDED);
            return;
        }
        sender.abandon(b);
        requeue(b);
    }

    private void requeue(long b) {
        int s = win.slot(b);
        long reissue = cfg.reissuePs();
        if (reissue > 0) {
            long now = sim.now();
            issuerFree = Math.max(issuerFree, now) + reissue;
            win.state[s] = REISSUING;
            win.timer[s] = sim.schedule(issuerFree - now, Band.HARDWARE, sender, ReliableSender.REISSUED, b);
            return;
        }
        win.state[s] = QUEUED;
        queue.add(b);
        sender.kick();
    }

    /** The connection failed: nothing waits for retransmission any more. */
    void clear() {
        queue.clear();
    }
}
