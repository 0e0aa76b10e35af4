package org.pagefabric.hw.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.sim.Time;

/**
 * Data that reaches memory after the sink accepted it (an IOMMU translation under way): the
 * receiver's ACKs and deliveries wait for it, and a payload that is available late holds its
 * packet at the sender.
 */
class HeldPlacementTest {
    private static final int BYTES = 64 * 1024;
    private static final int WINDOW_BYTES = 16 * 1024;
    private static final int MESSAGE = 8 * 1024;

    private static TransportConfig cfg(RetransmissionMode mode) {
        return TransferBed.config(mode, 4096, 1024, 4);
    }

    /** Runs the bed to the end and returns the time of the last sender completion. */
    private static long lastCompletion(TransferBed bed) {
        bed.postAll(MESSAGE);
        bed.sim.run();
        assertEquals(bed.src.length / MESSAGE, bed.completions.size(), bed.completions.toString());
        assertTrue(bed.completions.stream().allMatch(c -> c.endsWith("SUCCESS")), bed.completions.toString());
        assertArrayEquals(bed.src, bed.dst);
        return bed.completionTimes.getLast();
    }

    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void aPlacementLateByDShiftsDeliveryAndCompletionByExactlyD(RetransmissionMode mode) {
        // Four blocks fit the window at once, so only the last ACK's wait shows.
        TransferBed base = new TransferBed(1, cfg(mode), WINDOW_BYTES);
        long t0 = lastCompletion(base);
        long d = 700 * Time.NS;
        TransferBed late = new TransferBed(1, cfg(mode), WINDOW_BYTES);
        late.placeDelay = p -> d;
        long t1 = lastCompletion(late);
        assertEquals(t0 + d, t1, "the last ACK leaves when the last packet's data is in memory");
        assertEquals(base.deliveryTimes.getLast() + d, late.deliveryTimes.getLast());
        assertEquals(base.deliveries, late.deliveries, "the same messages, in the same order");
    }

    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void aPayloadAvailableLateHoldsEachPacketAtTheSender(RetransmissionMode mode) {
        TransferBed base = new TransferBed(2, cfg(mode), BYTES);
        long t0 = lastCompletion(base);
        long d = 50 * Time.NS;
        TransferBed late = new TransferBed(2, cfg(mode), BYTES);
        late.readDelay = p -> d;
        long t1 = lastCompletion(late);
        long packets = late.senderCounter("dataPackets");
        assertEquals(BYTES / 1024, packets, "nothing lost, nothing resent");
        // Each packet waits for its own payload before it leaves; the pump follows it.
        assertEquals(t0 + packets * d, t1);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void interleavedHitsAndWalksUnderLossNeverAckOrDeliverBeforePlacement(long seed) {
        for (RetransmissionMode mode : RetransmissionMode.values()) {
            TransferBed bed = new TransferBed(seed, cfg(mode), BYTES);
            bed.link("link0-1").setFaults(new LinkFaults(0.03, 0));
            bed.link("link1-0").setFaults(new LinkFaults(0.03, 0));
            SplittableRandom r = new SplittableRandom(seed * 31 + mode.ordinal());
            Map<Long, Long> placed = new HashMap<>();
            // A hit's few nanoseconds, or now and then a walk's microsecond.
            bed.placeDelay = p -> {
                long d = r.nextInt(5) == 0 ? Time.US : 10 * Time.NS;
                placed.merge(p.messageId, bed.sim.now() + d, Math::max);
                return d;
            };
            bed.readDelay = p -> r.nextInt(7) == 0 ? 800 * Time.NS : 5 * Time.NS;
            List<Long> ids = bed.postAll(MESSAGE);
            bed.sim.run();
            assertTrue(bed.senderCounter("retransmittedPackets") > 0, mode + ": the loss is exercised");
            assertEquals(ids, bed.deliveries, mode + ": every message delivered once, in order");
            assertArrayEquals(bed.src, bed.dst, mode + ": every byte placed");
            assertEquals(ids.size(), bed.completions.size());
            for (int i = 0; i < ids.size(); i++) {
                long id = ids.get(i);
                assertTrue(bed.deliveryTimes.get(i) >= placed.get(id),
                        mode + ": message " + id + " delivered before its data reached memory");
                assertTrue(bed.completionTimes.get(i) > bed.deliveryTimes.get(i),
                        mode + ": message " + id + " completed before the ACK of its placement could arrive");
                assertTrue(i == 0 || bed.deliveryTimes.get(i) >= bed.deliveryTimes.get(i - 1));
            }
        }
    }
}
