package org.pagefabric.hw.net;

import static org.pagefabric.hw.net.SenderWindow.ACKED;
import static org.pagefabric.hw.net.SenderWindow.SENT;

import org.pagefabric.sim.Band;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.stat.Counter;

/**
 * Go-back-N recovery of a {@link ReliableSender} (InfiniBand RC style): a cumulative packet
 * sequence acknowledges everything before it; one window time-out covers the packets in flight;
 * a NACK, a time-out or a retransmission request sends everything again from a packet on, in a
 * new epoch (carried in {@link Packet#attempt}), so stale NACKs of an older epoch are ignored.
 * RNR and PAGE_FAULT NACKs pause the sender until the back-off ends or the receiver asks.
 *
 * <p>Its timers are the sender's events (the sender stays the one handler of its connection);
 * the sender dispatches them here.
 */
final class GoBackN {
    private final ReliableSender sender;
    private final Simulator sim;
    private final TransportConfig cfg;
    private final SenderWindow win;
    private final Counter timeouts;

    /** Every packet before it has been acknowledged. */
    private long ackedPsn;
    /** Every packet before it has been sent at least once. */
    private long sentPsn;
    /** The next block to (re)transmit while going back. */
    long nextBsn;
    /** The current transmission epoch. */
    int epoch = 1;
    private int retries;
    private int rnr;
    /** Go-backs the receiver asked for explicitly since the last progress. */
    private int errs;
    /** Stopped by an RNR or PAGE_FAULT NACK until its back-off ends or the receiver asks. */
    boolean paused;
    private long windowTimer = Simulator.NO_EVENT;
    private long pauseTimer = Simulator.NO_EVENT;

    GoBackN(ReliableSender sender, Simulator sim, TransportConfig cfg, SenderWindow win, Counter timeouts) {
        this.sender = sender;
        this.sim = sim;
        this.cfg = cfg;
        this.win = win;
        this.timeouts = timeouts;
    }

    /** Whether sending packet {@code psn} is a retransmission. */
    boolean sentBefore(long psn) {
        return psn < sentPsn;
    }

    /** Packet {@code psn} has been handed to the network (or its payload read failed). */
    void sent(long psn) {
        if (psn >= sentPsn) {
            sentPsn = psn + 1;
        }
    }

    /** The last packet of block {@code bsn} (slot {@code s}) has left: arm the window's time-out. */
    void blockLeft(long bsn, int s, long delay) {
        win.state[s] = SENT;
        nextBsn = bsn + 1;
        if (windowTimer == Simulator.NO_EVENT && !paused) {
            windowTimer = sim.schedule(delay, Band.TIMEOUT, sender, ReliableSender.WINDOW_TIMEOUT, 0);
        }
    }

    /** Every packet before {@code psn} has arrived. */
    void ackPackets(long psn) {
        if (psn <= ackedPsn) {
            return;
        }
        ackedPsn = psn;
        retries = 0;
        rnr = 0;
        errs = 0;
        for (long b = win.base; b < win.high; b++) {
            int s = win.slot(b);
            if (win.firstPsn[s] + win.packets[s] > psn) {
                break;
            }
            sender.ackBlock(b);
        }
        cancelWindowTimer();
        if (ackedPsn < sentPsn && !paused) {
            windowTimer = sim.schedule(cfg.retransmitTimeoutPs(), Band.TIMEOUT, sender, ReliableSender.WINDOW_TIMEOUT, 0);
        }
    }

    /** A NACK of the current epoch (others are moot). */
    void onNack(Packet p, NackReason reason) {
        if (p.attempt != epoch) {
            return;
        }
        // The receiver NACKs the first packet it lacks: everything before it has arrived.
        ackPackets(p.psn);
        switch (reason) {
            case PAGE_FAULT -> {
                paused = true;
                cancelWindowTimer();
                if (cfg.faultWaitTimeoutPs() > 0) {
                    pauseTimer = sim.schedule(cfg.faultWaitTimeoutPs(), Band.TIMEOUT, sender,
                            ReliableSender.FAULT_WAIT_EXPIRED, 0);
                }
            }
            case RECEIVER_NOT_READY -> {
                if (++rnr > cfg.rnrRetryLimit()) {
                    sender.fail(sender.oldestMsn(), CompletionStatus.RNR_RETRY_EXCEEDED);
                    return;
                }
                paused = true;
                cancelWindowTimer();
                pauseTimer = sim.schedule(cfg.rnrBackoffPs(), Band.TIMEOUT, sender, ReliableSender.RNR_RESUME, p.psn);
            }
            case SEQUENCE, CORRUPT -> {
                if (++retries > cfg.retryLimit()) {
                    sender.fail(sender.oldestMsn(), CompletionStatus.RETRY_EXCEEDED);
                    return;
                }
                goBack(p.psn);
            }
            case REMOTE_ACCESS -> sender.fail(sender.oldestMsn(), CompletionStatus.REMOTE_ACCESS_ERROR);
        }
    }

    /**
     * The receiver asks for block {@code b} again (PART's fault handler): resume from it. The
     * go-back counts against the ERR retry limit, not the time-out one (see {@link SelectiveRepeat}).
     */
    void onRetransmissionRequest(long b) {
        boolean wasPaused = paused;
        boolean wanted = win.contains(b) && win.state[win.slot(b)] != ACKED;
        if (!wanted && !wasPaused) {
            return;
        }
        cancelPauseTimer();
        paused = false;
        if (cfg.errRetriesExhausted(++errs)) {
            sender.fail(sender.oldestMsn(), CompletionStatus.RNR_RETRY_EXCEEDED);
            return;
        }
        goBack(wanted ? win.firstPsn[win.slot(b)] : ackedPsn);
    }

    /** The window's time-out fired. */
    void windowTimeout() {
        windowTimer = Simulator.NO_EVENT;
        if (sender.isFailed() || ackedPsn >= sentPsn) {
            return;
        }
        timeouts.increment();
        if (++retries > cfg.retryLimit()) {
            sender.fail(sender.oldestMsn(), CompletionStatus.RETRY_EXCEEDED);
            return;
        }
        goBack(ackedPsn);
    }

    /** The RNR back-off has ended: resume from packet {@code psn}. */
    void rnrResume(long psn) {
        pauseTimer = Simulator.NO_EVENT;
        paused = false;
        goBack(psn);
    }

    /** No retransmission request came for a PAGE_FAULT NACK: count a time-out and go back. */
    void faultWaitExpired() {
        pauseTimer = Simulator.NO_EVENT;
        paused = false;
        timeouts.increment();
        if (++retries > cfg.retryLimit()) {
            sender.fail(sender.oldestMsn(), CompletionStatus.RETRY_EXCEEDED);
            return;
        }
        goBack(ackedPsn);
    }

    /** Retransmit everything from {@code psn} on, in a new epoch. */
    private void goBack(long psn) {
        psn = Math.max(psn, ackedPsn);
        epoch++;
        cancelWindowTimer();
        sender.abandonCurrent();
        nextBsn = win.high;
        for (long b = win.base; b < win.high; b++) {
            int s = win.slot(b);
            if (psn < win.firstPsn[s] + win.packets[s]) {
                sender.begin(b, (int) Math.max(0, psn - win.firstPsn[s]));
                nextBsn = b + 1;
                break;
            }
        }
        sender.kick();
    }

    /** The window's base has moved to {@link SenderWindow#base}. */
    void slid() {
        if (nextBsn < win.base) {
            nextBsn = win.base;
        }
    }

    /** The connection failed: cancel both timers. */
    void cancelTimers() {
        cancelWindowTimer();
        cancelPauseTimer();
    }

    private void cancelWindowTimer() {
        if (windowTimer != Simulator.NO_EVENT) {
            sim.cancel(windowTimer);
            windowTimer = Simulator.NO_EVENT;
        }
    }

    private void cancelPauseTimer() {
        if (pauseTimer != Simulator.NO_EVENT) {
            sim.cancel(pauseTimer);
            pauseTimer = Simulator.NO_EVENT;
        }
    }
}
