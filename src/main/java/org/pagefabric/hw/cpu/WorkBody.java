package org.pagefabric.hw.cpu;

/**
 * Work whose cost is known only when it starts running: an interrupt handler or a tasklet that
 * drains whatever a device queued by then (fault registers, a FIFO of NACKs). The core calls
 * {@link #begin} at the instant the work first gets the core; the body inspects the state of the
 * model at that instant, takes what it will process, and answers how long that takes.
 */
@FunctionalInterface
public interface WorkBody {
    /**
     * Starts the work.
     *
     * @param type the type the work was submitted with
     * @param arg  the argument the work was submitted with
     * @return the cost of the work in picoseconds, at least 0
     */
    long begin(int type, long arg);
}
