package org.pagefabric.hw.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.Time;

/**
 * PART's explicit retransmission requests (seed 000 §IV: the receiver pages the faulting page in,
 * then asks for the block again) are counted against {@link TransportConfig#errRetryLimit}, as
 * InfiniBand counts RNR NAKs against {@code rnr_retry}; time-outs stay under
 * {@link TransportConfig#retryLimit}.
 */
class ExplicitRetransmissionLimitTest {
    private static final int KIB = 1024;
    private static final int BLOCK = 16 * KIB;
    /** default.yaml's transport.retry_limit (InfiniBand retry_cnt 7). */
    private static final int DEFAULT_RETRY_LIMIT = 7;
    private static final long PAGE_IN = 20 * Time.US;

    private static TransportConfig config(RetransmissionMode mode) {
        return TransferBed.withRetries(TransferBed.config(mode, BLOCK, 256, 4), DEFAULT_RETRY_LIMIT, 7);
    }

    /**
     * A receiver whose block {@code b} faults on its first {@code faults[b]} transmissions: each
     * fault is NACKed, and the receiver software asks for the block again once the page is in
     * (memory pressure evicts it again before the retransmission lands, until the count runs out).
     */
    private static void faultingReceiver(TransferBed bed, int[] faults) {
        int[] seenAttempt = new int[faults.length];
        int[] faulted = new int[faults.length];
        bed.gate = p -> {
            int b = (int) ((p.messageId + p.offset) / BLOCK);
            if (faulted[b] == faults[b] && seenAttempt[b] != p.attempt) {
                return SinkVerdict.ACCEPT;
            }
            if (seenAttempt[b] != p.attempt) {
                seenAttempt[b] = p.attempt;
                faulted[b]++;
                long id = p.messageId;
                int block = p.block;
                bed.sim.schedule(PAGE_IN, Band.KERNEL, (t, a) -> bed.receiver.requestRetransmission(id, block), 0, 0);
            }
            return SinkVerdict.PAGE_FAULT;
        };
    }

    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void manyExplicitRequestsOfOneBlockCompleteUnderTheDefaultRetryLimit(RetransmissionMode mode) {
        TransferBed bed = new TransferBed(31, config(mode), 4 * BLOCK);
        faultingReceiver(bed, new int[] {0, 20, 0, 0});
        bed.postAll(4 * BLOCK);
        bed.sim.run();
        assertArrayEquals(bed.src, bed.dst);
        assertEquals(List.of("0:SUCCESS"), bed.completions);
        assertEquals(20, bed.senderCounter("retransmissionRequests"), "20 > retry limit 7, all honoured");
        assertEquals(0, bed.senderCounter("timeouts"));
        assertEquals(0, bed.sim.pendingEvents());
    }

    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void errRetryLimitEndsInErrorLikeTheRnrLimit(RetransmissionMode mode) {
        TransferBed bed = new TransferBed(32, config(mode).withErrRetryLimit(3), 4 * BLOCK);
        faultingReceiver(bed, new int[] {0, 1000, 0, 0});
        bed.postAll(BLOCK);
        bed.sim.run();
        assertEquals(List.of("0:SUCCESS", "16384:RNR_RETRY_EXCEEDED", "32768:FLUSHED", "49152:FLUSHED"),
                bed.completions);
        assertEquals(4, bed.senderCounter("retransmissionRequests"), "3 retransmissions, the 4th request ends it");
        assertEquals(1, bed.senderCounter("retryLimitFailures"));
        assertEquals(0, bed.senderCounter("timeouts"));
        assertEquals(0, bed.sim.pendingEvents(), "a failed connection leaves no timer behind");
    }

    /** Page faults at the source are recovered by the time-out (000 §IV): those still spend the retry limit. */
    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void timeOutsOfAnExplicitlyRequestedBlockStillExceedTheRetryLimit(RetransmissionMode mode) {
        TransferBed bed = new TransferBed(33, config(mode), BLOCK);
        faultingReceiver(bed, new int[] {20});
        // After its 20 requests the block's source page faults on every read: nothing reaches the receiver.
        bed.sourceGate = p -> bed.senderCounter("retransmissionRequests") < 20;
        bed.postAll(BLOCK);
        bed.sim.run();
        assertEquals(List.of("0:RETRY_EXCEEDED"), bed.completions);
        assertEquals(20, bed.senderCounter("retransmissionRequests"));
        assertEquals(DEFAULT_RETRY_LIMIT + 1, bed.senderCounter("timeouts"), "1 + 7 time-outs, ERRs not counted");
        assertEquals(0, bed.pool.inUse());
    }

    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void aLimitOutsideTheThreeBitEncodingIsRefused(RetransmissionMode mode) {
        assertThrows(IllegalArgumentException.class, () -> config(mode).withErrRetryLimit(8));
        assertThrows(IllegalArgumentException.class, () -> config(mode).withErrRetryLimit(-1));
    }

    static Stream<Arguments> seeds() {
        List<Arguments> out = new ArrayList<>();
        for (RetransmissionMode mode : RetransmissionMode.values()) {
            for (long seed = 1; seed <= 12; seed++) {
                out.add(Arguments.of(mode, seed));
            }
        }
        return out.stream();
    }

    /**
     * Random numbers of faults per block and a random ERR limit: the transfer completes with the
     * right bytes exactly when no block is requested more often than the limit allows (or there
     * is none, 7), and otherwise fails with RNR_RETRY_EXCEEDED; time-outs never happen.
     */
    @ParameterizedTest
    @MethodSource("seeds")
    void completesExactlyWhenNoBlockIsRequestedPastTheLimit(RetransmissionMode mode, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int blocks = 6;
        int[] faults = new int[blocks];
        int most = 0;
        for (int b = 0; b < blocks; b++) {
            faults[b] = rnd.nextInt(4) == 0 ? rnd.nextInt(12) : 0;
            most = Math.max(most, faults[b]);
        }
        int limit = rnd.nextInt(TransportConfig.ERR_RETRY_INFINITE + 1);
        TransferBed bed = new TransferBed(seed, config(mode).withErrRetryLimit(limit), blocks * BLOCK);
        faultingReceiver(bed, faults);
        bed.postAll(2 * BLOCK);
        bed.sim.run();
        boolean fits = limit == TransportConfig.ERR_RETRY_INFINITE || most <= limit;
        String what = mode + " faults " + java.util.Arrays.toString(faults) + " limit " + limit + ": " + bed.completions;
        if (fits) {
            assertArrayEquals(bed.src, bed.dst, what);
            assertTrue(bed.completions.stream().allMatch(c -> c.endsWith(":SUCCESS")), what);
            assertEquals(blocks / 2, bed.completions.size(), what);
        } else {
            assertTrue(bed.completions.stream().anyMatch(c -> c.endsWith(":RNR_RETRY_EXCEEDED")), what);
            assertTrue(bed.sender.isFailed(), what);
        }
        assertEquals(0, bed.senderCounter("timeouts"), what);
        assertEquals(0, bed.pool.inUse(), what);
    }
}
