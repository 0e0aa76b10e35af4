package org.pagefabric.sim;

/** A model failed while handling an event; the message says which event, when and where. */
public class SimulationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Creates an exception with a message naming the failed event, and its cause. */
    public SimulationException(String message, Throwable cause) {
        super(message, cause);
    }

    /** Creates an exception with a message. */
    public SimulationException(String message) {
        super(message);
    }
}
