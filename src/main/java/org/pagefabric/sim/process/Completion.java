package org.pagefabric.sim.process;

/**
 * A signal that event-driven models (a NIC's completion queue, a DMA engine) give to waiting
 * processes: a work-completion, a doorbell acknowledgement, a process's end.
 *
 * <p><b>Level-triggered.</b> Once {@linkplain #complete(long) completed}, a completion stays
 * completed, carrying its value, until {@link #reset()}: {@link ProcessContext#await} on a
 * completed completion returns its value at once, without suspending, so a completion that
 * fires before its waiter gets there is not lost. Completing an already completed completion
 * is an error (it almost always means a model signalled twice); {@code reset()} re-arms it,
 * which lets a rank reuse one completion per outstanding operation and allocate nothing per
 * wait.
 *
 * <p><b>Wake-up.</b> {@code complete} never runs a process: for each waiter it schedules a
 * resume event at the current time in {@link org.pagefabric.sim.Band#APPLICATION}, so the
 * completing handler finishes first, and the process sees everything hardware and kernel do at
 * that instant. Waiters resume in the order they started waiting. Each waiter receives the
 * value given to {@code complete}, even if the completion is reset before it runs.
 *
 * <p>Not thread-safe, like everything in a simulation: use it from the simulator's events and
 * processes only.
 */
public final class Completion {
    private final String name;
    private boolean done;
    private long value;
    /** Intrusive FIFO of waiters, linked through {@link SimProcess#nextWaiter}: no node objects. */
    private SimProcess head;
    private SimProcess tail;

    /** An anonymous completion. */
    public Completion() {
        this(null);
    }

    /** A completion with a name for deadlock reports, e.g. {@code node3.rank0.cq}. */
    public Completion(String name) {
        this.name = name;
    }

    /** Completes with value 0. */
    public void complete() {
        complete(0L);
    }

    /**
     * Completes with a value (a byte count, a status, a tag) and schedules the resumption of
     * every waiter, in the order they started waiting.
     *
     * @throws IllegalStateException if already completed and not reset since
     */
    public void complete(long value) {
        if (done) {
            throw new IllegalStateException(this + " is already completed; reset() it before reuse");
        }
        done = true;
        this.value = value;
        SimProcess w = head;
        head = null;
        tail = null;
        while (w != null) {
            SimProcess next = w.nextWaiter;
            w.nextWaiter = null;
            w.wake(value);
            w = next;
        }
    }

    /** Whether completed since creation or the last {@link #reset()}. */
    public boolean isDone() {
        return done;
    }

    /**
     * The value of the completion.
     *
     * @throws IllegalStateException if not completed
     */
    public long value() {
        if (!done) {
            throw new IllegalStateException(this + " is not completed");
        }
        return value;
    }

    /**
     * Re-arms the completion for its next use. Processes already woken still resume (with the
     * value they were woken with); processes still waiting keep waiting for the next
     * {@link #complete}.
     */
    public void reset() {
        done = false;
        value = 0L;
    }

    /** Whether some process waits on this completion. */
    public boolean hasWaiters() {
        return head != null;
    }

    void addWaiter(SimProcess p) {
        if (tail == null) {
            head = p;
        } else {
            tail.nextWaiter = p;
        }
        tail = p;
    }

    /** Unlinks a waiter that is being closed, so that a later complete() does not wake it. */
    void removeWaiter(SimProcess p) {
        SimProcess prev = null;
        for (SimProcess w = head; w != null; prev = w, w = w.nextWaiter) {
            if (w == p) {
                if (prev == null) {
                    head = w.nextWaiter;
                } else {
                    prev.nextWaiter = w.nextWaiter;
                }
                if (tail == w) {
                    tail = prev;
                }
                w.nextWaiter = null;
                return;
            }
        }
    }

    @Override
    public String toString() {
        return name != null ? name : "completion@" + Integer.toHexString(System.identityHashCode(this));
    }
}
