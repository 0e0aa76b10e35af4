package org.pagefabric.hw.net;

/**
 * How a work request ended, as in verbs' {@code ibv_wc_status}. The reliable transport ends a
 * message with the transport outcomes ({@link #SUCCESS}, the retry limits, {@link #FLUSHED},
 * {@link #REMOTE_ACCESS_ERROR}); the NIC adds the ones it finds itself before or after the wire.
 */
public enum CompletionStatus {
    /** Done: every block was acknowledged. */
    SUCCESS,
    /** The local key, bounds or access flags refused the local buffer. */
    LOCAL_PROTECTION_ERROR,
    /** The remote side refused the access (bad rkey, out of bounds, or flags); nothing was written and the connection failed. */
    REMOTE_ACCESS_ERROR,
    /** The remote side could not carry out the operation (e.g. no receive posted on UD). */
    REMOTE_OPERATION_ERROR,
    /** A block was answered "receiver not ready" more often than the RNR retry count allows; the connection failed. */
    RNR_RETRY_EXCEEDED,
    /** A block exceeded the retry limit (time-outs, SEQUENCE or CORRUPT NACKs); the connection failed. */
    RETRY_EXCEEDED,
    /** The queue pair went to the error state (another message's failure) before this request completed. */
    FLUSHED
}
