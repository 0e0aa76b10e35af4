package org.pagefabric.record;

/** A recording that cannot be made or was not completed: one line saying why, for the user. */
public final class RecordingRefused extends Exception {
    private static final long serialVersionUID = 1L;

    /** The refusal, as one line. */
    public RecordingRefused(String message) {
        super(message);
    }
}
