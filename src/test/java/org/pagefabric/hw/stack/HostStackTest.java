package org.pagefabric.hw.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.node.Cluster;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.MapFlags;
import org.pagefabric.hw.os.Prot;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.workload.PointRun;
import org.pagefabric.workload.WorkloadRegistry;

/** The host stack's mechanisms: TCP's reliability and congestion window, UDP's drops, the IOMMU path. */
class HostStackTest {
    private static final Profile GEM5 = ProfileRegistry.load("aa-gem5");

    /** A TCP stream of {@code bytes} from node 0 to node 1, sampling the sender's window every microsecond. */
    private static final class Stream {
        final List<long[]> samples = new ArrayList<>(); // {cwnd, ssthresh}
        long received;
        boolean inOrder = true;
        TcpSocket sender;
    }

    private static Stream stream(Profile profile, long seed, long bytes) {
        Simulator sim = new Simulator(seed);
        Cluster c = Cluster.build(sim, profile, 2);
        StackCosts costs = StackCosts.of(profile);
        HostStack a = new HostStack(c.node(0), costs);
        HostStack b = new HostStack(c.node(1), costs);
        TcpSocket[] s = HostStack.connectTcp(a, b);
        Stream out = new Stream();
        out.sender = s[0];
        int chunk = 8192;
        AddressSpace ua = c.node(0).kernel().createProcess(0, true);
        AddressSpace ub = c.node(1).kernel().createProcess(0, true);
        long va = c.node(0).kernel().mmap(ua, 0, chunk, Prot.READ_WRITE, MapFlags.POPULATE).address();
        long vb = c.node(1).kernel().mmap(ub, 0, chunk, Prot.READ_WRITE, MapFlags.POPULATE).address();
        boolean[] done = {false};
        new SimProcess(sim, c.node(0), "send", ctx -> {
            for (long at = 0; at < bytes; at += chunk) {
                c.node(0).kernel().writeTag(ua, va, chunk, 77, at);
                s[0].send(ctx, ua, va, chunk);
            }
        }).start();
        new SimProcess(sim, c.node(1), "recv", ctx -> {
            while (out.received < bytes) {
                long n = s[1].recv(ctx, ub, vb, chunk);
                out.inOrder &= c.node(1).kernel().verifyTag(ub, vb, n, 77, out.received);
                out.received += n;
            }
            done[0] = true;
        }).start();
        new SimProcess(sim, c.node(0), "monitor", ctx -> {
            while (!done[0]) {
                out.samples.add(new long[] {s[0].cwnd(), s[0].ssthresh()});
                ctx.sleep(Time.US);
            }
        }).start();
        sim.run();
        SimProcess.checkNoDeadlock(sim);
        return out;
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4, 5, 6})
    void tcpDeliversEveryByteInOrderDespiteLoss(long seed) {
        Profile lossy = GEM5.withOverrides(Map.of("link.loss", "0.03", "stack.tcp.rto", "2 ms"), "test");
        long bytes = (36 + seed) * 8192;
        Stream s = stream(lossy, seed, bytes);
        assertEquals(bytes, s.received);
        assertTrue(s.inOrder, "every byte at its place in the stream");
        assertEquals(bytes, s.sender.acknowledged(), "the sender saw everything acknowledged");
    }

    @Test
    void congestionWindowGrowsInSlowStartWithoutLoss() {
        Stream s = stream(GEM5, 1, 49 * 8192);
        long initial = (long) StackCosts.of(GEM5).initialWindow() * s.sender.mss();
        assertEquals(initial, s.samples.get(0)[0]);
        long last = initial;
        for (long[] x : s.samples) {
            assertTrue(x[0] >= last, "no loss: the window never shrinks");
            last = x[0];
        }
        assertTrue(last > 2 * initial, "slow start grew the window: " + last);
        assertTrue(s.sender.ssthresh() > 1L << 40, "no loss, no threshold");
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3})
    void congestionWindowHalvesOrResetsOnLoss(long seed) {
        Profile lossy = GEM5.withOverrides(Map.of("link.loss", "0.02", "stack.tcp.rto", "2 ms"), "test");
        Stream s = stream(lossy, seed, 49 * 8192);
        int mss = s.sender.mss();
        int cuts = 0;
        for (int i = 1; i < s.samples.size(); i++) {
            long[] before = s.samples.get(i - 1);
            long[] after = s.samples.get(i);
            if (after[1] != before[1]) { // a loss was detected in this microsecond
                cuts++;
                assertTrue(after[0] <= Math.max(before[0] / 2, 2L * mss) + 2L * mss,
                        "cwnd " + before[0] + " -> " + after[0] + " is at most about half");
                assertTrue(after[1] <= Math.max(before[0] / 2, 2L * mss) + 2L * mss, "ssthresh about half the window");
            }
        }
        assertTrue(cuts > 0, "the loss was noticed");
    }

    private static Map<String, Object> netperf(Profile p, String protocol, long size, long messages) {
        return PointRun.run(p, "pin-all", WorkloadRegistry.standard().byName("netperf"),
                Map.of("protocol", protocol, "size_B", size, "messages", messages), 1);
    }

    @Test
    void udpDropsAreCountedWhenTheReceiverIsSlowAndEveryDatagramIsAccountedFor() {
        // one-frame datagrams on the gem5 machine: the receiver's per-frame work exceeds the sender's
        Map<String, Object> row = netperf(GEM5.withOverrides(Map.of("nic.iommu", "false"), "test"), "udp", 64, 3000);
        assertEquals(true, row.get("verified"));
        long dropped = (Long) row.get("dropped_datagrams");
        long ring = (Long) row.get("ring_drops");
        long got = (Long) row.get("messages_received");
        assertTrue(dropped + ring > 0, row.toString());
        assertEquals(3000, got + dropped + ring, "each datagram delivered or dropped once");
    }

    @Test
    void aFastReceiverDropsNothing() {
        Profile fast = GEM5.withOverrides(Map.of("stack.rx.per_packet", "100 ns", "stack.socket.recv_buffer", "4 MiB"),
                "test");
        Map<String, Object> row = netperf(fast, "udp", 4096, 300);
        assertEquals(0L, row.get("dropped_datagrams"));
        assertEquals(300L, row.get("messages_received"));
        assertEquals(true, row.get("verified"));
    }

    @Test
    void bothIommuSettingsDeliverAndOnlyEIommuTranslates() {
        for (String protocol : List.of("tcp", "udp")) {
            Map<String, Object> none = netperf(GEM5.withOverrides(Map.of("nic.iommu", "false"), "t"), protocol, 4096, 200);
            Map<String, Object> eiommu = netperf(GEM5.withOverrides(Map.of("nic.iommu", "true"), "t"), protocol, 4096, 200);
            assertEquals(true, none.get("verified"));
            assertEquals(true, eiommu.get("verified"));
            assertEquals(0L, none.get("iommu_translations"));
            assertTrue((Long) eiommu.get("iommu_translations") > 0, eiommu.toString());
            assertTrue((Long) eiommu.get("iotlb_misses") > 0, "the buffers span more pages than the IOTLB holds");
            assertEquals(none.get("packets"), eiommu.get("packets"), "the same frames either way");
        }
    }

    @Test
    void smallTcpWritesAreCoalescedIntoFullSegments() {
        Map<String, Object> row = netperf(GEM5, "tcp", 64, 2000);
        assertEquals(true, row.get("verified"));
        long packets = (Long) row.get("packets");
        assertTrue(packets < 2000 * 64 / 1000, "Nagle coalesces 64 B writes: " + packets + " frames");
    }

    @Test
    void sameSeedSameRow() {
        Profile lossy = GEM5.withOverrides(Map.of("link.loss", "0.01"), "t");
        assertEquals(netperf(lossy, "tcp", 16384, 100), netperf(lossy, "tcp", 16384, 100));
    }
}
