package org.pagefabric.hw.net;

/** Told at the sender when a posted message ends; messages end in the order they were posted. */
@FunctionalInterface
public interface CompletionListener {
    /** The message {@code messageId} ended with {@code status}. */
    void onComplete(long messageId, CompletionStatus status);
}
