package org.pagefabric.hw.net;

/**
 * Parameters of a reliable connection; both ends of a connection must use the same.
 *
 * @param mode                 selective (per block) or go-back-N retransmission
 * @param blockBytes           bytes per block: the unit of acknowledgement and of selective
 *                             retransmission (PART: 16 KiB); a multiple of {@code mtuBytes}
 * @param mtuBytes             payload bytes per packet (PART: 256 B; InfiniBand: up to 4 KiB)
 * @param windowBlocks         blocks a sender may have unacknowledged at once
 * @param ackEveryPackets      0: acknowledge at the end of each block only; n &gt; 0: also after every
 *                             n accepted packets (1 acknowledges every packet, more coalesces).
 *                             Such progress ACKs restart the block's (window's) time-out.
 * @param retransmitTimeoutPs  time from a block's last packet leaving the sender (selective), or
 *                             from the last progress (go-back-N), to a retransmission, in ps
 * @param retryLimit           retransmissions after time-outs, SEQUENCE or CORRUPT NACKs allowed
 *                             for one block (selective) or without progress (go-back-N) before
 *                             the connection fails with {@link CompletionStatus#RETRY_EXCEEDED}
 * @param rnrBackoffPs         wait after a RECEIVER_NOT_READY NACK before retrying, in ps
 * @param rnrRetryLimit        RNR retries allowed per block (selective) or without progress
 *                             (go-back-N) before {@link CompletionStatus#RNR_RETRY_EXCEEDED}
 * @param nackCorrupt          whether a receiver NACKs a packet that fails its checksum (true) or
 *                             drops it silently and leaves recovery to the time-out (false)
 * @param nackOnGap            selective mode: whether a receiver NACKs (SEQUENCE) the earlier blocks
 *                             of a message that are still missing packets when a later block of it
 *                             completes, asking for them again before the time-out, once until a
 *                             time-out has sent them again (Open-MX's optimistic re-request, seed
 *                             003 footnote 4 and its driver's omx_pull.c); go-back-N always NACKs
 *                             the first gap
 * @param faultWaitTimeoutPs   after a PAGE_FAULT NACK the time-out is cancelled and the sender waits
 *                             for an explicit retransmission request; 0 waits forever, so a lost
 *                             request leaves the block waiting (PART's hardware); a positive value
 *                             retransmits after that long as if it had timed out, the back-stop
 *                             for a lost request
 * @param reissuePs            selective mode: time the sender's block issuer takes to issue a block
 *                             again once it is to be retransmitted (after an explicit request, a
 *                             time-out or a NACK), one block at a time; 0 retransmits at once.
 *                             PART's R5 co-processor issues blocks to the packet engine and
 *                             receives their ACKs and time-outs (000 §III-A), so a retransmission
 *                             passes through it
 * @param errRetryLimit        retransmissions the receiver asked for with an explicit retransmission
 *                             request (PART's ERR, sent once a faulting page is in) allowed for one
 *                             block (selective) or without progress (go-back-N) before
 *                             {@link CompletionStatus#RNR_RETRY_EXCEEDED}; encoded as verbs encodes
 *                             {@code rnr_retry}, a 3-bit count where {@value #ERR_RETRY_INFINITE}
 *                             means no limit. They are counted apart from {@code retryLimit}, as
 *                             InfiniBand counts RNR NAKs apart from time-outs: the receiver said the
 *                             block is wanted again, so the path is alive
 */
public record TransportConfig(
        RetransmissionMode mode,
        int blockBytes,
        int mtuBytes,
        int windowBlocks,
        int ackEveryPackets,
        long retransmitTimeoutPs,
        int retryLimit,
        long rnrBackoffPs,
        int rnrRetryLimit,
        boolean nackCorrupt,
        boolean nackOnGap,
        long faultWaitTimeoutPs,
        long reissuePs,
        int errRetryLimit) {

    /** The {@code errRetryLimit} that retries explicitly requested blocks without limit (verbs' {@code rnr_retry} 7). */
    public static final int ERR_RETRY_INFINITE = 7;

    /** A configuration whose explicitly requested retransmissions are not limited ({@link #ERR_RETRY_INFINITE}). */
    public TransportConfig(RetransmissionMode mode, int blockBytes, int mtuBytes, int windowBlocks,
            int ackEveryPackets, long retransmitTimeoutPs, int retryLimit, long rnrBackoffPs, int rnrRetryLimit,
            boolean nackCorrupt, boolean nackOnGap, long faultWaitTimeoutPs, long reissuePs) {
        this(mode, blockBytes, mtuBytes, windowBlocks, ackEveryPackets, retransmitTimeoutPs, retryLimit, rnrBackoffPs,
                rnrRetryLimit, nackCorrupt, nackOnGap, faultWaitTimeoutPs, reissuePs, ERR_RETRY_INFINITE);
    }

    /** A configuration whose retransmissions need no issuing time ({@code reissuePs} 0). */
    public TransportConfig(RetransmissionMode mode, int blockBytes, int mtuBytes, int windowBlocks,
            int ackEveryPackets, long retransmitTimeoutPs, int retryLimit, long rnrBackoffPs, int rnrRetryLimit,
            boolean nackCorrupt, boolean nackOnGap, long faultWaitTimeoutPs) {
        this(mode, blockBytes, mtuBytes, windowBlocks, ackEveryPackets, retransmitTimeoutPs, retryLimit, rnrBackoffPs,
                rnrRetryLimit, nackCorrupt, nackOnGap, faultWaitTimeoutPs, 0);
    }

    /** Validates the parameters. */
    public TransportConfig {
        if (mode == null) {
            throw new IllegalArgumentException("transport mode must be SELECTIVE or GO_BACK_N");
        }
        if (mtuBytes <= 0) {
            throw new IllegalArgumentException("mtuBytes must be > 0, got " + mtuBytes);
        }
        if (blockBytes <= 0 || blockBytes % mtuBytes != 0) {
            throw new IllegalArgumentException("blockBytes must be a positive multiple of mtuBytes ("
                    + mtuBytes + "), got " + blockBytes);
        }
        if (windowBlocks <= 0) {
            throw new IllegalArgumentException("windowBlocks must be > 0, got " + windowBlocks);
        }
        if (ackEveryPackets < 0) {
            throw new IllegalArgumentException("ackEveryPackets must be >= 0, got " + ackEveryPackets);
        }
        if (retransmitTimeoutPs <= 0) {
            throw new IllegalArgumentException("retransmitTimeoutPs must be > 0, got " + retransmitTimeoutPs);
        }
        if (retryLimit < 0 || rnrRetryLimit < 0) {
            throw new IllegalArgumentException("retry limits must be >= 0, got " + retryLimit + " and " + rnrRetryLimit);
        }
        if (errRetryLimit < 0 || errRetryLimit > ERR_RETRY_INFINITE) {
            throw new IllegalArgumentException("errRetryLimit must be 0 to " + ERR_RETRY_INFINITE + " ("
                    + ERR_RETRY_INFINITE + ": no limit), got " + errRetryLimit);
        }
        if (rnrBackoffPs < 0 || faultWaitTimeoutPs < 0 || reissuePs < 0) {
            throw new IllegalArgumentException("rnrBackoffPs, faultWaitTimeoutPs and reissuePs must be >= 0");
        }
    }

    /** Whether one more explicitly requested retransmission, after {@code done} of them, exceeds the limit. */
    public boolean errRetriesExhausted(int done) {
        return errRetryLimit != ERR_RETRY_INFINITE && done > errRetryLimit;
    }

    /** The same configuration with another {@code errRetryLimit}. */
    public TransportConfig withErrRetryLimit(int limit) {
        return new TransportConfig(mode, blockBytes, mtuBytes, windowBlocks, ackEveryPackets, retransmitTimeoutPs,
                retryLimit, rnrBackoffPs, rnrRetryLimit, nackCorrupt, nackOnGap, faultWaitTimeoutPs, reissuePs, limit);
    }

    /** Packets in a full block. */
    public int packetsPerBlock() {
        return blockBytes / mtuBytes;
    }
}
