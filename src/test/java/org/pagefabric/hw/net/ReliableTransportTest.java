package org.pagefabric.hw.net;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.pagefabric.sim.Band;
import org.pagefabric.sim.Time;

class ReliableTransportTest {
    static final int KIB = 1024;

    static List<String> successes(List<Long> ids) {
        List<String> out = new ArrayList<>();
        for (long id : ids) {
            out.add(id + ":" + CompletionStatus.SUCCESS);
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void cleanTransferArrivesWholeAndCancelsEveryTimer(RetransmissionMode mode) {
        TransportConfig cfg = TransferBed.config(mode, 16 * KIB, 256, 8);
        TransferBed bed = new TransferBed(1, cfg, 256 * KIB + 100);
        List<Long> ids = bed.postAll(40_000);
        bed.sim.run();
        assertArrayEquals(bed.src, bed.dst);
        assertEquals(successes(ids), bed.completions);
        assertEquals(ids, bed.deliveries);
        assertEquals(0, bed.senderCounter("timeouts"));
        assertEquals(0, bed.senderCounter("retransmittedPackets"));
        assertEquals(0, bed.receiverCounter("duplicates"));
        // Every time-out was cancelled by its ACK: the run ends long before the first could fire.
        assertTrue(bed.sim.now() < cfg.retransmitTimeoutPs(), "ended at " + Time.format(bed.sim.now()));
        assertEquals(0, bed.sim.pendingEvents());
        assertEquals(0, bed.pool.inUse(), "no packet leaked");
        long packets = (256 * KIB + 100 + 255) / 256 + 1; // one message boundary splits a packet
        assertTrue(bed.senderCounter("dataPackets") >= packets - 1 && bed.senderCounter("dataPackets") <= packets + 7);
    }

    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void perPacketAcksAcknowledgeEveryPacket(RetransmissionMode mode) {
        TransportConfig cfg = TransferBed.withAcks(TransferBed.config(mode, 4 * KIB, 1 * KIB, 4), 1);
        TransferBed bed = new TransferBed(2, cfg, 64 * KIB);
        bed.postAll(16 * KIB);
        bed.sim.run();
        assertArrayEquals(bed.src, bed.dst);
        assertEquals(64, bed.receiverCounter("acks"), "one ACK per packet (progress or block end)");
    }

    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void zeroLengthMessagesComplete(RetransmissionMode mode) {
        TransferBed bed = new TransferBed(3, TransferBed.config(mode, 4 * KIB, 1 * KIB, 4), 16);
        bed.sender.post(0, 0, 0, 1);
        bed.sender.post(0, 16, 0, 1);
        bed.sim.run();
        assertEquals(List.of("0:SUCCESS", "0:SUCCESS"), bed.completions);
        assertArrayEquals(bed.src, bed.dst);
    }

    /**
     * PART (seed 000 §III): the destination page faults, the receiver NACKs PAGE_FAULT at once,
     * its software pages the page in and sends an explicit retransmission request; the sender
     * cancels the time-out on the NACK and retransmits the block on the request.
     */
    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void pageFaultNackAndExplicitRequestRecoverWithoutTimeout(RetransmissionMode mode) {
        TransportConfig cfg = TransferBed.config(mode, 16 * KIB, 256, 4);
        TransferBed bed = new TransferBed(4, cfg, 64 * KIB);
        long pageIn = 20 * Time.US;
        int faultyPage = 5; // 4 KiB pages: the second block
        Set<Integer> present = new HashSet<>();
        bed.gate = p -> {
            int page = (int) ((p.address + p.offset) / (4 * KIB));
            if (page != faultyPage || present.contains(page)) {
                return SinkVerdict.ACCEPT;
            }
            long id = p.messageId;
            int block = p.block;
            // Receiver software: page in, then ask for the block again (once per fault burst).
            if (present.add(-1 - page)) {
                bed.sim.schedule(pageIn, Band.KERNEL, (t, a) -> {
                    present.add(page);
                    assertTrue(bed.receiver.requestRetransmission(id, block));
                }, 0, 0);
            }
            return SinkVerdict.PAGE_FAULT;
        };
        bed.postAll(64 * KIB);
        bed.sim.run();
        assertArrayEquals(bed.src, bed.dst);
        assertEquals(List.of("0:SUCCESS"), bed.completions);
        assertEquals(0, bed.senderCounter("timeouts"), "the NACK cancelled the time-out");
        assertEquals(1, bed.senderCounter("nacks.page_fault"));
        assertEquals(1, bed.senderCounter("retransmissionRequests"));
        assertTrue(bed.deliveryTimes.get(0) < pageIn + 20 * Time.US, "recovered long before the 100 us time-out");
        assertTrue(bed.senderCounter("retransmittedPackets") > 0);
        assertEquals(0, bed.pool.inUse());
    }

    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void pageFaultWithoutRequestWaitsForTheFallbackTimeout(RetransmissionMode mode) {
        TransportConfig base = TransferBed.config(mode, 16 * KIB, 256, 4);
        TransportConfig cfg = new TransportConfig(mode, base.blockBytes(), base.mtuBytes(), base.windowBlocks(), 0,
                base.retransmitTimeoutPs(), 8, base.rnrBackoffPs(), 7, true, true, 300 * Time.US);
        TransferBed bed = new TransferBed(5, cfg, 32 * KIB);
        int[] faults = {0};
        bed.gate = p -> p.offset == 0 && faults[0]++ == 0 ? SinkVerdict.PAGE_FAULT : SinkVerdict.ACCEPT;
        bed.postAll(32 * KIB);
        bed.sim.run();
        assertArrayEquals(bed.src, bed.dst);
        assertEquals(1, bed.senderCounter("timeouts"));
        assertTrue(bed.deliveryTimes.get(0) >= 300 * Time.US, "waited for the fault-wait time-out, not the 100 us one");
    }

    /** ODP (seed 001): a responder fault answers RNR NAK; the requester backs off and retries. */
    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void receiverNotReadyBacksOffAndRetries(RetransmissionMode mode) {
        TransportConfig cfg = TransferBed.config(mode, 4 * KIB, 1 * KIB, 4);
        TransferBed bed = new TransferBed(6, cfg, 16 * KIB);
        int[] refusals = {0};
        long readyAt = 50 * Time.US;
        bed.gate = p -> {
            if (bed.sim.now() < readyAt && p.offset >= 8 * KIB) {
                refusals[0]++;
                return SinkVerdict.RECEIVER_NOT_READY;
            }
            return SinkVerdict.ACCEPT;
        };
        bed.postAll(16 * KIB);
        bed.sim.run();
        assertArrayEquals(bed.src, bed.dst);
        assertEquals(List.of("0:SUCCESS"), bed.completions);
        long rnr = bed.senderCounter("nacks.receiver_not_ready");
        assertTrue(rnr >= 2 && rnr <= 7, "retried every 20 us until ready: " + rnr);
        assertEquals(0, bed.senderCounter("timeouts"));
        assertTrue(bed.deliveryTimes.get(0) >= readyAt);
    }

    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void rnrRetryLimitEndsInErrorAndFlushesTheRest(RetransmissionMode mode) {
        TransportConfig cfg = TransferBed.withRetries(TransferBed.config(mode, 4 * KIB, 1 * KIB, 4), 8, 3);
        TransferBed bed = new TransferBed(7, cfg, 16 * KIB);
        bed.gate = p -> p.messageId == 4 * KIB ? SinkVerdict.RECEIVER_NOT_READY : SinkVerdict.ACCEPT;
        bed.postAll(4 * KIB);
        bed.sim.run();
        assertEquals(List.of("0:SUCCESS", "4096:RNR_RETRY_EXCEEDED", "8192:FLUSHED", "12288:FLUSHED"), bed.completions);
        assertEquals(4, bed.senderCounter("nacks.receiver_not_ready"), "first try plus 3 retries");
        assertTrue(bed.sender.isFailed());
        assertThrows(IllegalStateException.class, () -> bed.sender.post(0, 1, 0, 1));
        assertEquals(0, bed.sim.pendingEvents(), "a failed connection leaves no timer behind");
    }

    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void retryLimitOnADeadLinkEndsInError(RetransmissionMode mode) {
        TransportConfig cfg = TransferBed.withRetries(TransferBed.config(mode, 4 * KIB, 1 * KIB, 4), 3, 7);
        TransferBed bed = new TransferBed(8, cfg, 8 * KIB);
        bed.link("link0-1").setFaults(new LinkFaults(1, 0));
        bed.postAll(4 * KIB);
        bed.sim.run();
        assertEquals(List.of("0:RETRY_EXCEEDED", "4096:FLUSHED"), bed.completions);
        // Selective: each of the two blocks times out on its own; the first to exceed the limit
        // (after 1 + 3 time-outs) fails the connection while the other has had 3.
        assertEquals(mode == RetransmissionMode.SELECTIVE ? 7 : 4, bed.senderCounter("timeouts"));
        assertTrue(bed.sim.now() >= 4 * cfg.retransmitTimeoutPs());
        assertEquals(0, bed.pool.inUse());
    }

    /** Open-MX (seed 003): a packet whose page is not pinned yet is dropped; a later packet asks for it again. */
    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void silentDropIsRequestedAgainBeforeTheTimeout(RetransmissionMode mode) {
        TransportConfig cfg = TransferBed.config(mode, 16 * KIB, 4 * KIB, 4);
        TransferBed bed = new TransferBed(9, cfg, 64 * KIB);
        int[] drops = {0};
        bed.gate = p -> p.offset == 20 * KIB && drops[0]++ == 0 ? SinkVerdict.DROP : SinkVerdict.ACCEPT;
        bed.postAll(64 * KIB);
        bed.sim.run();
        assertArrayEquals(bed.src, bed.dst);
        assertEquals(0, bed.senderCounter("timeouts"));
        assertEquals(1, bed.senderCounter("nacks.sequence"));
        assertTrue(bed.sim.now() < cfg.retransmitTimeoutPs());
    }

    /**
     * Open-MX's pull asks again only when a later block of the pull completes: a loss in the
     * message's last block has no later block to reveal it and waits for the time-out.
     */
    @Test
    void silentDropInTheLastBlockOfAMessageWaitsForTheTimeout() {
        TransportConfig cfg = TransferBed.config(RetransmissionMode.SELECTIVE, 16 * KIB, 4 * KIB, 4);
        TransferBed bed = new TransferBed(9, cfg, 64 * KIB);
        int[] drops = {0};
        // The first packet of the last block: the block's later packets still arrive.
        bed.gate = p -> p.offset == 48 * KIB && drops[0]++ == 0 ? SinkVerdict.DROP : SinkVerdict.ACCEPT;
        bed.postAll(64 * KIB);
        bed.sim.run();
        assertArrayEquals(bed.src, bed.dst);
        assertEquals(0, bed.senderCounter("nacks.sequence"), "no later block completed: nothing asks again");
        assertEquals(1, bed.senderCounter("timeouts"));
        assertTrue(bed.sim.now() >= cfg.retransmitTimeoutPs());
    }

    /**
     * A block asked for again early is not asked for again before the time-out (Open-MX asks
     * once per time-out): losing its retransmission too leaves it to the time-out, although
     * later blocks of the message keep completing.
     */
    @Test
    void aBlockIsAskedForAgainEarlyOnlyOnceUntilTheTimeout() {
        TransportConfig cfg = TransferBed.config(RetransmissionMode.SELECTIVE, 16 * KIB, 4 * KIB, 16);
        TransferBed bed = new TransferBed(9, cfg, 256 * KIB);
        int[] drops = {0};
        int[] completedAfterSecondLoss = {0};
        bed.gate = p -> {
            if (p.offset == 20 * KIB && drops[0] < 2) {
                drops[0]++;
                return SinkVerdict.DROP;
            }
            if (drops[0] == 2 && p.lastInBlock() && p.offset > 20 * KIB) {
                completedAfterSecondLoss[0]++;
            }
            return SinkVerdict.ACCEPT;
        };
        bed.postAll(256 * KIB);
        bed.sim.run();
        assertArrayEquals(bed.src, bed.dst);
        assertEquals(2, drops[0]);
        assertTrue(completedAfterSecondLoss[0] > 0, "later blocks completed after the retransmission was lost");
        assertEquals(1, bed.senderCounter("nacks.sequence"), "asked for again early once");
        assertEquals(1, bed.senderCounter("timeouts"), "the second loss waits for the time-out");
    }

    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void silentDropWithoutGapNacksWaitsForTheTimeout(RetransmissionMode mode) {
        TransportConfig cfg = TransferBed.withNacks(TransferBed.config(mode, 16 * KIB, 4 * KIB, 4), true, false);
        TransferBed bed = new TransferBed(9, cfg, 16 * KIB);
        int[] drops = {0};
        // The last packet of the only block: nothing comes after it to reveal the gap.
        bed.gate = p -> p.offset == 12 * KIB && drops[0]++ == 0 ? SinkVerdict.DROP : SinkVerdict.ACCEPT;
        bed.postAll(16 * KIB);
        bed.sim.run();
        assertArrayEquals(bed.src, bed.dst);
        assertEquals(1, bed.senderCounter("timeouts"));
    }

    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void lostAcksCauseDuplicatesThatAreNotDeliveredTwice(RetransmissionMode mode) {
        TransportConfig cfg = TransferBed.withRetries(TransferBed.config(mode, 2 * KIB, 512, 4), 100, 7);
        TransferBed bed = new TransferBed(10, cfg, 32 * KIB);
        bed.link("link1-0").setFaults(new LinkFaults(0.4, 0));
        List<Long> ids = bed.postAll(4 * KIB);
        bed.sim.run();
        assertArrayEquals(bed.src, bed.dst);
        assertEquals(ids, bed.deliveries, "each message delivered once, in order");
        assertEquals(successes(ids), bed.completions);
        assertTrue(bed.receiverCounter("duplicates") > 0);
    }

    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void sourceFaultIsRecoveredByTheTimeout(RetransmissionMode mode) {
        TransportConfig cfg = TransferBed.config(mode, 4 * KIB, 1 * KIB, 4);
        TransferBed bed = new TransferBed(11, cfg, 8 * KIB);
        int[] faults = {0};
        bed.sourceGate = p -> !(p.offset == 1 * KIB && faults[0]++ == 0);
        bed.postAll(8 * KIB);
        bed.sim.run();
        assertArrayEquals(bed.src, bed.dst);
        assertEquals(1, bed.senderCounter("sourceFaults"));
        assertTrue(bed.senderCounter("timeouts") + bed.senderCounter("nacks.sequence") >= 1);
    }

    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void corruptionIsDetectedAndNacked(RetransmissionMode mode) {
        TransportConfig cfg = TransferBed.withRetries(TransferBed.config(mode, 2 * KIB, 512, 4), 100, 7);
        TransferBed bed = new TransferBed(12, cfg, 32 * KIB);
        bed.net.setFaults(new LinkFaults(0, 0.1));
        List<Long> ids = bed.postAll(8 * KIB);
        bed.sim.run();
        assertArrayEquals(bed.src, bed.dst);
        assertEquals(successes(ids), bed.completions);
        assertTrue(bed.receiverCounter("corrupt") > 0);
        assertTrue(bed.senderCounter("nacks.corrupt") > 0);
    }

    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void twoSendersThroughAStarSwitch(RetransmissionMode mode) {
        TransportConfig cfg = TransferBed.config(mode, 4 * KIB, 1 * KIB, 4);
        var sim = new org.pagefabric.sim.Simulator(13);
        var pool = new PacketPool(16, cfg.mtuBytes());
        var net = new Network(sim, "net", pool, TransferBed.COSTS, Star.factory(3));
        TransportEndpoint e0 = new TransportEndpoint(net, 0, null);
        TransportEndpoint e1 = new TransportEndpoint(net, 1, null);
        TransportEndpoint e2 = new TransportEndpoint(net, 2, null);
        byte[] dst = new byte[64 * KIB];
        List<String> done = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            int base = s * 32 * KIB;
            (s == 0 ? e0 : e1).openSender(1, 2, 10 + s, cfg, p -> {
                for (int i = 0; i < p.length; i++) {
                    p.bytes[i] = (byte) ((p.address + p.offset + i) * 31);
                }
                p.hasBytes = true;
                return true;
            }, (id, st) -> done.add(id + ":" + st));
            e2.openReceiver(10 + s, s, 1, cfg, p -> {
                System.arraycopy(p.bytes, 0, dst, (int) (p.address + p.offset), p.length);
                return SinkVerdict.ACCEPT;
            }, (id, len, op, addr) -> { });
        }
        // Both senders' endpoints hold their sender on channel 1.
        for (int s = 0; s < 2; s++) {
            ReliableSender sender = (ReliableSender) sim.component("node" + s + "-send1");
            sender.post(s, 32 * KIB, s * 32 * KIB, 1);
        }
        sim.run();
        for (int i = 0; i < dst.length; i++) {
            assertEquals((byte) (i * 31), dst[i], "byte " + i);
        }
        assertEquals(Set.of("0:SUCCESS", "1:SUCCESS"), new HashSet<>(done));
        var delay = (org.pagefabric.sim.stat.Accumulator) sim.statistics().get("net.down2.queueingDelay");
        assertTrue(delay.max() > 0, "the two flows contend for the switch's output port");
        assertEquals(0, pool.inUse());
        assertFalse(e2.node() != 2);
    }

    /**
     * The ACK of a one-packet message arrives exactly when the block's time-out expires: the
     * arrival (hardware band) runs first and cancels the timer; one picosecond less and the
     * timer fires first.
     */
    @ParameterizedTest
    @EnumSource(RetransmissionMode.class)
    void ackArrivingAtTheTimeoutInstantWins(RetransmissionMode mode) {
        LinkParams link = TransferBed.COSTS.link();
        long header = link.serializationPs(TransferBed.COSTS.headerBytes());
        // The header-only packet leaves at `header`; its ACK is back at 2 * (header + latency).
        long exact = 2 * (header + link.latencyPs()) - header;
        for (long timeout : new long[] {exact, exact - 1}) {
            TransportConfig base = TransferBed.config(mode, 4 * KIB, 1 * KIB, 4);
            TransportConfig cfg = new TransportConfig(mode, base.blockBytes(), base.mtuBytes(), base.windowBlocks(), 0,
                    timeout, 8, base.rnrBackoffPs(), 7, true, true, 0);
            TransferBed bed = new TransferBed(14, cfg, 16);
            bed.sender.post(0, 0, 0, 1);
            bed.sim.run();
            assertEquals(List.of("0:SUCCESS"), bed.completions);
            assertEquals(timeout == exact ? 0 : 1, bed.senderCounter("timeouts"), "time-out " + timeout + " ps");
        }
    }

    @org.junit.jupiter.api.Test
    void benchCountsEveryPacketOfItsWrites() {
        TransportBench.Result r = TransportBench.run(3, 1);
        // 1 MiB in 4 KiB packets, and one ACK per 64 KiB block.
        assertEquals(3 * (256 + 16), r.packets());
        assertTrue(r.packetsPerSecond() > 0);
    }
}
