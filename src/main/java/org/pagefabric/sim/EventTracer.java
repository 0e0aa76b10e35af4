package org.pagefabric.sim;

/** Observes every dispatched event; used for determinism hashes and debugging traces. */
@FunctionalInterface
public interface EventTracer {
    /**
     * Called just before an event's handler runs.
     *
     * @param time    virtual time of the event in picoseconds
     * @param band    the event's priority band
     * @param handler the component that receives it
     * @param type    the event type
     */
    void onEvent(long time, int band, EventHandler handler, int type);
}
