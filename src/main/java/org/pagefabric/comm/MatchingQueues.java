package org.pagefabric.comm;

import java.util.ArrayDeque;
import java.util.Iterator;

/**
 * MPI's message matching at one rank: the posted-receive queue and the unexpected-message queue,
 * each searched in order, so that a receive takes the oldest matching message and a message the
 * oldest matching receive (MPI 4.0, §3.5: non-overtaking per source, tag and communicator).
 * An envelope is a source, a tag and a communicator; a receive may name {@link #ANY_SOURCE} or
 * {@link #ANY_TAG}, a message never does.
 *
 * @param <R> what a posted receive is to the caller
 * @param <M> what an unexpected message is to the caller
 */
public final class MatchingQueues<R, M> {
    /** A receive's source that matches any sender (MPI_ANY_SOURCE). */
    public static final int ANY_SOURCE = -1;
    /** A receive's tag that matches any tag (MPI_ANY_TAG). */
    public static final int ANY_TAG = -1;

    private record Entry<T>(T item, int source, int tag, int comm) {
    }

    private final ArrayDeque<Entry<R>> posted = new ArrayDeque<>();
    private final ArrayDeque<Entry<M>> unexpected = new ArrayDeque<>();

    /** Whether a receive for {@code (source, tag, comm)} takes a message with envelope {@code (s, t, c)}. */
    public static boolean matches(int source, int tag, int comm, int s, int t, int c) {
        return comm == c && (source == ANY_SOURCE || source == s) && (tag == ANY_TAG || tag == t);
    }

    /**
     * Posts a receive: returns the oldest unexpected message it matches, taken off the queue, or
     * {@code null} after queueing the receive behind the receives posted before it.
     */
    public M post(R receive, int source, int tag, int comm) {
        for (Iterator<Entry<M>> it = unexpected.iterator(); it.hasNext(); ) {
            Entry<M> m = it.next();
            if (matches(source, tag, comm, m.source, m.tag, m.comm)) {
                it.remove();
                return m.item;
            }
        }
        posted.addLast(new Entry<>(receive, source, tag, comm));
        return null;
    }

    /**
     * A message arrives: returns the oldest posted receive it matches, taken off the queue, or
     * {@code null} after queueing the message as unexpected behind the ones that came before it.
     */
    public R arrive(M message, int source, int tag, int comm) {
        for (Iterator<Entry<R>> it = posted.iterator(); it.hasNext(); ) {
            Entry<R> r = it.next();
            if (matches(r.source, r.tag, r.comm, source, tag, comm)) {
                it.remove();
                return r.item;
            }
        }
        unexpected.addLast(new Entry<>(message, source, tag, comm));
        return null;
    }

    /**
     * The oldest unexpected message a probe for {@code (source, tag, comm)} sees, left on the
     * queue (MPI_Iprobe), or {@code null}.
     */
    public M probe(int source, int tag, int comm) {
        for (Entry<M> m : unexpected) {
            if (matches(source, tag, comm, m.source, m.tag, m.comm)) {
                return m.item;
            }
        }
        return null;
    }

    /** Whether a message with envelope {@code (source, tag, comm)} would match a posted receive. */
    public boolean hasPosted(int source, int tag, int comm) {
        for (Entry<R> r : posted) {
            if (matches(r.source, r.tag, r.comm, source, tag, comm)) {
                return true;
            }
        }
        return false;
    }

    /** Takes a posted receive off the queue (MPI_Cancel); whether it was still there to take. */
    public boolean cancel(R receive) {
        for (Iterator<Entry<R>> it = posted.iterator(); it.hasNext(); ) {
            if (it.next().item == receive) {
                it.remove();
                return true;
            }
        }
        return false;
    }

    /** Receives posted and not yet matched. */
    public int postedCount() {
        return posted.size();
    }

    /** Messages arrived and not yet matched. */
    public int unexpectedCount() {
        return unexpected.size();
    }
}
