package org.pagefabric.hw.nic;

/** Outcome of a work request, as in verbs' {@code ibv_wc_status}. */
public enum CompletionStatus {
    /** Done. */
    SUCCESS,
    /** The local key, bounds or access flags refused the local buffer. */
    LOCAL_PROTECTION_ERROR,
    /** The remote side refused the access: bad rkey, out of bounds, or flags. Nothing was written. */
    REMOTE_ACCESS_ERROR,
    /** The remote side could not carry out the operation (e.g. no receive posted on UD). */
    REMOTE_OPERATION_ERROR,
    /** The responder answered "receiver not ready" more often than the retry count allows. */
    RNR_RETRY_EXCEEDED,
    /** Transport retries (timeouts) ran out. */
    RETRY_EXCEEDED,
    /** The queue pair went to the error state before the request ran. */
    FLUSHED
}
