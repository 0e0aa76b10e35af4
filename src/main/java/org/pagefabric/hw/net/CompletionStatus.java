package org.pagefabric.hw.net;

/** How a posted message ended at its sender. */
public enum CompletionStatus {
    /** Every block was acknowledged. */
    SUCCESS,
    /** A block exceeded the retry limit (time-outs, SEQUENCE or CORRUPT NACKs); the connection failed. */
    RETRY_EXCEEDED,
    /** A block exceeded the RNR retry limit; the connection failed. */
    RNR_RETRY_EXCEEDED,
    /** Another message's failure put the connection in error before this one completed. */
    FLUSHED,
    /** The receiver refused the access (key, bounds, rights); the connection failed. */
    REMOTE_ACCESS_ERROR
}
