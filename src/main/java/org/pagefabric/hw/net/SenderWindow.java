package org.pagefabric.hw.net;

import org.pagefabric.sim.Simulator;

/**
 * The blocks a {@link ReliableSender} has in flight: window slots indexed by
 * {@code bsn % size}, struct-of-arrays, for blocks {@code [base, high)}. Each slot records
 * where its block lies (message, offset, packets, first PSN), its transmission state, its
 * retry and RNR counts, and its pending timer.
 *
 * <p>Fields are read and written in place by the sender: the window is its state, split out so
 * the sender's class holds only what it does with it.
 */
final class SenderWindow {
    static final byte FREE = 0;
    static final byte SENDING = 1;
    static final byte SENT = 2;
    static final byte QUEUED = 3;
    static final byte FAULT_WAIT = 4;
    static final byte RNR_WAIT = 5;
    static final byte ACKED = 6;
    /** Waiting for the block issuer to issue it again (selective, {@link TransportConfig#reissuePs}). */
    static final byte REISSUING = 7;

    private final Simulator sim;
    final int size;
    final long[] bsn;
    final long[] msn;
    final long[] firstPsn;
    final long[] offset;
    final long[] timer;
    final int[] length;
    final int[] packets;
    final int[] block;
    final int[] retries;
    final int[] rnr;
    /** Retransmissions the receiver asked for explicitly (PART's ERR), counted apart from time-outs. */
    final int[] errs;
    final int[] attempt;
    final byte[] state;
    /** Oldest unacknowledged block; blocks [base, high) are in the window. */
    long base;
    long high;

    SenderWindow(Simulator sim, int size) {
        this.sim = sim;
        this.size = size;
        bsn = new long[size];
        msn = new long[size];
        firstPsn = new long[size];
        offset = new long[size];
        timer = new long[size];
        length = new int[size];
        packets = new int[size];
        block = new int[size];
        retries = new int[size];
        rnr = new int[size];
        errs = new int[size];
        attempt = new int[size];
        state = new byte[size];
    }

    /** Whether block {@code b} is in the window. */
    boolean contains(long b) {
        return b >= base && b < high;
    }

    /** Whether the window has room for another block. */
    boolean full() {
        return high - base >= size;
    }

    /** The slot of block {@code b}. */
    int slot(long b) {
        return (int) (b % size);
    }

    /** Cancels slot {@code s}'s timer, if one is pending. */
    void cancelTimer(int s) {
        if (timer[s] != Simulator.NO_EVENT) {
            sim.cancel(timer[s]);
            timer[s] = Simulator.NO_EVENT;
        }
    }

    /** Cancels every slot's timer, in slot order. */
    void cancelTimers() {
        for (int s = 0; s < size; s++) {
            cancelTimer(s);
        }
    }
}
