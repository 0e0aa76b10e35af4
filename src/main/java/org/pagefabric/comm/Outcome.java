package org.pagefabric.comm;

import org.pagefabric.hw.net.CompletionStatus;

/**
 * How a rank's operation ended, as an application reads it from a {@link CompletionEntry}: the
 * transport's and the NIC's completion statuses, one for one, under the names verbs gives them.
 */
public enum Outcome {
    /** Done: the data is where it was sent. */
    SUCCESS,
    /** The local key, bounds or access flags refused the local buffer. */
    LOCAL_PROTECTION_ERROR,
    /** The remote side refused the access (bad rkey, out of bounds, or flags); the connection failed. */
    REMOTE_ACCESS_ERROR,
    /** The remote side could not carry out the operation (e.g. no receive posted on UD). */
    REMOTE_OPERATION_ERROR,
    /** The receiver was not ready more often than the RNR retry count allows; the connection failed. */
    RNR_RETRY_EXCEEDED,
    /** A block exceeded the transport's retry limit; the connection failed. */
    RETRY_EXCEEDED,
    /** The connection failed (another operation's failure) before this operation completed. */
    FLUSHED;

    private static final Outcome[] OF_STATUS = new Outcome[CompletionStatus.values().length];

    static {
        for (CompletionStatus s : CompletionStatus.values()) {
            OF_STATUS[s.ordinal()] = valueOf(s.name());
        }
    }

    /** The outcome a completion with {@code status} reports. */
    static Outcome of(CompletionStatus status) {
        return OF_STATUS[status.ordinal()];
    }

    /** Whether the operation succeeded. */
    public boolean ok() {
        return this == SUCCESS;
    }
}
