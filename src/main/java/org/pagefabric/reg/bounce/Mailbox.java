package org.pagefabric.reg.bounce;

import java.util.ArrayDeque;
import org.pagefabric.sim.process.Completion;
import org.pagefabric.sim.process.ProcessContext;

/**
 * The receives one rank posted for messages from one peer, in posting order: the receiving
 * CPU matches each message arriving in its bounce buffers to the oldest one and copies it there.
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

    private final String name;
    private final ArrayDeque<Posted> posted = new ArrayDeque<>();
    private Completion arrival;

    Mailbox(String name) {
        this.name = name;
    }

    /** Adds a receive, waking a message that waits for one. */
    void post(long va, long length, long wrId) {
        posted.addLast(new Posted(va, length, wrId));
        if (arrival != null) {
            Completion c = arrival;
            arrival = null;
            c.complete();
        }
    }

    /** The oldest posted receive, waiting until one is posted (the message sits in its bounce buffer meanwhile). */
    Posted oldest(ProcessContext ctx) {
        while (posted.isEmpty()) {
            if (arrival == null) {
                arrival = new Completion(name + ".posted");
            }
            ctx.await(arrival);
        }
        return posted.peekFirst();
    }

    /** Removes the oldest receive: its message is complete. */
    void retire() {
        posted.removeFirst();
    }
}
