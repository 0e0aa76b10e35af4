package org.pagefabric.sim;

/**
 * Receiver of events. Hardware models implement this directly and decode {@code type} in a
 * switch: one object per component rather than one per event keeps the event loop free of
 * allocation.
 */
@FunctionalInterface
public interface EventHandler {
    /**
     * Handles one event.
     *
     * @param type event type, chosen by the component (stable: it enters determinism hashes)
     * @param arg  one word of payload: an index, a sequence number, a packed pair
     */
    void handle(int type, long arg);
}
