package org.pagefabric.reg.bounce;

import java.util.ArrayDeque;

/**
 * The receives one rank posted for messages from one peer, in posting order, and the pieces of
 * that peer's messages that arrived before their receive: the receiving CPU copies each piece into
 * the oldest receive, at once if one is posted and no earlier piece waits, else when a receive is.
 */
final class Mailbox {
    /** A posted receive and how much of its message was copied into it so far. */
    static final class Posted {
        final long va;
        final long length;
        final long wrId;
        long copied;

        Posted(long va, long length, long wrId) {
            this.va = va;
            this.length = length;
            this.wrId = wrId;
        }
    }

    /** A piece of a message that arrived before any receive for it: it waits in its bounce buffer. */
    record Parked(int buffer, long offset, long length, long total) {
    }

    private final ArrayDeque<Posted> posted = new ArrayDeque<>();
    private final ArrayDeque<Parked> parked = new ArrayDeque<>();
    private boolean draining;

    /** Adds a receive; the caller then drains the pieces parked for it. */
    void post(long va, long length, long wrId) {
        posted.addLast(new Posted(va, length, wrId));
    }

    /**
     * Whether an arriving piece must wait in its buffer: no receive is posted, or earlier pieces
     * wait or are being copied out, which it must not overtake.
     */
    boolean mustPark() {
        return posted.isEmpty() || !parked.isEmpty() || draining;
    }

    /** Leaves a piece in its bounce buffer until a receive takes it. */
    void park(int buffer, long offset, long length, long total) {
        parked.addLast(new Parked(buffer, offset, length, total));
    }

    /** The oldest parked piece if a receive is posted to take it, else {@code null}. */
    Parked nextParked() {
        return posted.isEmpty() ? null : parked.pollFirst();
    }

    /** Marks the receiving rank copying parked pieces out, or done with them. */
    void draining(boolean on) {
        draining = on;
    }

    /** The oldest posted receive; there must be one. */
    Posted oldest() {
        return posted.getFirst();
    }

    /** Removes the oldest receive: its message is complete. */
    void retire() {
        posted.removeFirst();
    }
}
