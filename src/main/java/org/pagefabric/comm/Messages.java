package org.pagefabric.comm;

import org.pagefabric.config.Parameter;
import org.pagefabric.endpoint.ActiveMessageParameters;
import org.pagefabric.endpoint.ActiveMessages;
import org.pagefabric.sim.process.ProcessContext;

/**
 * A workload's own active messages beside its policy's (its own queue pairs, regions and
 * servers): a request runs a handler at the target rank, which answers with a value, over the
 * simulated network like any other traffic. How a workload builds a protocol of its own, such as
 * a barrier; a workload that models an active-message runtime of its own reads the same profile
 * parameters this one's costs come from.
 */
public final class Messages {
    /**
     * Suffix of the count of received active messages that name no handler, which a run that
     * ends with processes waiting reports as its reason.
     */
    public static final String GARBLED = ActiveMessages.GARBLED;

    /** The profile's polling interval of an active-message server (see {@link ActiveMessageParameters}). */
    public static final Parameter POLL_INTERVAL = ActiveMessageParameters.POLL_INTERVAL;
    /** The profile's longest polling interval of a server that backs off. */
    public static final Parameter BACKOFF_MAX_INTERVAL = ActiveMessageParameters.BACKOFF_MAX_INTERVAL;
    /** The profile's messages handled per interrupt by an interrupt-driven server. */
    public static final Parameter INTERRUPT_BATCH = ActiveMessageParameters.INTERRUPT_BATCH;
    /** The profile's runtime work per message received, beyond reading the message. */
    public static final Parameter RECEIVE_OVERHEAD = ActiveMessageParameters.RECEIVE_OVERHEAD;

    private final ActiveMessages messages;

    /** Code that runs at the target of a request. */
    @FunctionalInterface
    public interface Handler {
        /**
         * Handles a request from rank {@code source} in rank {@code target}'s server process.
         *
         * @return the value sent back in the reply
         */
        long handle(ProcessContext ctx, int target, int source, long a0, long a1, long a2, long a3);
    }

    private Messages(ActiveMessages messages) {
        this.messages = messages;
    }

    /**
     * Sets up active messages for every rank of {@code job}.
     *
     * @param label names their components, e.g. {@code barrier}; unique per job
     */
    public static Messages attach(Job job, String label) {
        return new Messages(ActiveMessages.attach(job.layout(), label));
    }

    /** Installs the handler for {@code id} (0..63). */
    public void register(int id, Handler handler) {
        messages.register(id, (ctx, target, source, a0, a1, a2, a3) -> handler.handle(ctx, target.id(), source.id(),
                a0, a1, a2, a3));
    }

    /**
     * Sends a request from {@code source} to {@code target}, runs handler {@code id} there, and
     * waits for the reply; returns the handler's value.
     */
    public long request(ProcessContext ctx, Rank source, Rank target, int id, long a0, long a1, long a2, long a3) {
        return messages.request(ctx, source.endpoint(), target.endpoint(), id, a0, a1, a2, a3);
    }
}
