package org.pagefabric.sim;

/**
 * An event handler that is not a {@link Component} but schedules itself often, one of hundreds
 * alike (a process's Active Access domain): it keeps the id the simulator gave it, so that
 * scheduling it needs neither the handler map nor the small cache of recent handlers, which a
 * thousand such handlers would keep evicting each other from.
 */
public abstract class FrequentHandler implements EventHandler {
    // the table that gave the id: a handler scheduled on another simulator gets that one's id
    HandlerTable idOwner;
    int handlerId;

    /** For subclasses. */
    protected FrequentHandler() {
    }
}
