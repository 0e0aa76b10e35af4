package org.pagefabric.workload;

import org.pagefabric.comm.Outcome;

/**
 * The operations of a run that completed with an error, and the first error: what a row that
 * does not verify says first, since an error explains more than the wrong bytes that follow it.
 */
public final class FailedOperations {
    private long count;
    private Outcome first;

    /** One operation completed with {@code status}; a success is not counted. */
    public void completed(Outcome status) {
        if (status != Outcome.SUCCESS && count++ == 0) {
            first = status;
        }
    }

    /** Operations that completed with an error. */
    public long count() {
        return count;
    }

    /**
     * "N of M {@code noun} completed with STATUS: what it means", or {@code null} when none failed.
     *
     * @param of how many operations there were
     * @param noun what they are called in this workload ("transfers", "operations")
     */
    public String describe(long of, String noun) {
        return count == 0 ? null : count + " of " + of + " " + noun + " completed with " + first + meaning(first);
    }

    /**
     * What a failed completion's status means for a transfer, after its name (": the NIC refused
     * ..."), or an empty string when the status speaks for itself.
     */
    static String meaning(Outcome status) {
        // A policy that registers only its segment (pin-all) gives the NIC no key for malloc'd buffers.
        return switch (status) {
            case LOCAL_PROTECTION_ERROR -> ": the NIC refused the local buffer, not in memory the policy registered";
            case REMOTE_ACCESS_ERROR -> ": the NIC refused the remote buffer, not in memory the policy registered";
            case RETRY_EXCEEDED -> ": the transport gave up at its retry limit";
            default -> "";
        };
    }
}
