package org.pagefabric.workload.rma;

import org.pagefabric.sim.Time;

/**
 * When processes that wait for work carried by unreliable datagrams ({@link org.pagefabric.comm.rma.DatagramRma}) give up
 * on it. Nothing resends a datagram a lossy link dropped, so a process that polls until every
 * message of the run has been handled would poll for ever; it stops once no message has been
 * handled for {@link #LOST_AFTER_PS}, and the run's end-to-end check then finds what is missing.
 * A lossless run handles one every few microseconds (a hashtable of 8 processes inserts 10^6 or more
 * elements per second in all), so 10 ms without any is a thousand times beyond a late one, and
 * short enough that the polling it costs stays cheap.
 */
public final class StallWatch {
    /** Simulated time without progress after which what is still missing counts as lost. */
    public static final long LOST_AFTER_PS = 10 * Time.MS;

    private long progressAt;

    /** Something was handled at {@code nowPs}. */
    public void progress(long nowPs) {
        progressAt = nowPs;
    }

    /**
     * Whether what a process waiting since {@code waitingSincePs} still waits for will never come:
     * nothing was handled for {@link #LOST_AFTER_PS} since the later of the last progress and the
     * start of its wait.
     */
    public boolean lostForGood(long nowPs, long waitingSincePs) {
        return nowPs - Math.max(progressAt, waitingSincePs) > LOST_AFTER_PS;
    }
}
