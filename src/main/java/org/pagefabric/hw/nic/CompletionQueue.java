package org.pagefabric.hw.nic;

import java.util.ArrayDeque;
import org.pagefabric.sim.process.Completion;

/**
 * A completion queue of bounded depth. Overrunning it is an error, as on real NICs (the queue
 * pair cannot report completions any more). A process waits for entries through
 * {@link #notEmpty()}, which completes whenever an entry arrives in an empty queue.
 */
public final class CompletionQueue {
    private final String name;
    private final int depth;
    private final ArrayDeque<WorkCompletion> entries = new ArrayDeque<>();
    private final Completion notEmpty;
    private long overruns;

    /** A queue of {@code depth} entries. */
    public CompletionQueue(String name, int depth) {
        if (depth <= 0) {
            throw new IllegalArgumentException("completion queue depth must be positive, not " + depth);
        }
        this.name = name;
        this.depth = depth;
        this.notEmpty = new Completion(name + ".notEmpty");
    }

    /** Adds an entry; false (and an overrun counted) if the queue is full. */
    public boolean push(WorkCompletion wc) {
        if (entries.size() == depth) {
            overruns++;
            return false;
        }
        entries.addLast(wc);
        if (!notEmpty.isDone()) {
            notEmpty.complete();
        }
        return true;
    }

    /** Removes and returns the oldest entry, or {@code null}. */
    public WorkCompletion poll() {
        WorkCompletion wc = entries.pollFirst();
        if (entries.isEmpty() && notEmpty.isDone()) {
            notEmpty.reset();
        }
        return wc;
    }

    /** Entries waiting. */
    public int size() {
        return entries.size();
    }

    /** Completes while the queue holds entries: await it, then {@link #poll()}. */
    public Completion notEmpty() {
        return notEmpty;
    }

    /** Entries lost because the queue was full. */
    public long overruns() {
        return overruns;
    }

    /** The queue's name. */
    public String name() {
        return name;
    }
}
