package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.CompletionEntry;
import org.pagefabric.comm.DatagramQueue;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.mem.ContentTag;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.process.SimProcess;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * A netmap-style packet generator (PktGen with netmap, 002 §5.1): node 0 streams {@code iterations}
 * Ethernet frames of {@code size_B} to node 1 through its NIC, one UD datagram per frame, out of
 * a transmit ring of {@code ring} buffers; node 1's NIC places them into a receive ring of
 * {@code ring} pre-posted buffers, which the receiver hands back as it consumes them.
 *
 * <p>The rings live in each rank's segment, which the policy registers (pin-all pins it). With
 * {@code nic.iommu} the NIC reaches the rings through the node's IOMMU: they are registered as
 * IOMMU regions over the (pinned) process pages, so every frame's DMA is translated, and the
 * translation is timed (IOTLB hits pipelined, walks stalling the DMA engine).
 *
 * <p>A frame's UD payload is {@code size_B} minus the Ethernet header and FCS
 * ({@value #ETHERNET_HEADER_AND_FCS} B), which the link's per-packet overhead carries. Each
 * frame has its own content tag, and the receiver checks every frame it consumes against it;
 * the run is verified only if every frame arrived, in order, intact. The generator fills a
 * frame when its ring buffer is free, without CPU time (netmap's pkt-gen prebuilds its frames).
 */
public final class PktGenWorkload extends AbstractWorkload {
    /** Ethernet header (14 B) and frame check sequence (4 B): in the frame size, not in the payload. */
    public static final int ETHERNET_HEADER_AND_FCS = 18;
    /** Bytes of one netmap ring buffer (netmap's default buffer size). */
    public static final int BUFFER_BYTES = 2048;
    /** Metric: frames delivered. */
    public static final String PACKETS = "packets";
    /** Parameter: buffers in each ring. */
    public static final String RING = "ring";
    private static final long TAG_BASE = 0x9E7600000000L;
    private static final int CQ_DEPTH = 1 << 16;

    /** {@code size_B} is the Ethernet frame size, header and FCS included; {@code iterations} the frames sent. */
    private static final List<WorkloadParameter> PARAMETERS = List.of(StandardParameters.size(1518),
            StandardParameters.iterations(),
            WorkloadParameter.integer(RING, 256, "", "buffers in the transmit and in the receive ring", 1, 4096));

    /** The workload with its declared metadata. */
    public PktGenWorkload() {
        super(WorkloadDescriptor.of("pktgen", "netmap-style packet generator: Ethernet frames from node 0 to node 1"
                + " over UD, frames per second").parameters(PARAMETERS).higherIsBetter("bandwidth_MBps").ownTraffic()
                .segment(p -> ring(p) * (long) BUFFER_BYTES).build());
    }

    private static int ring(Params params) {
        return params.intValue(RING);
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        int frame = Math.toIntExact(StandardParameters.size(params));
        int packets = StandardParameters.iterations(params);
        int ring = ring(params);
        if (frame < 64 || frame > BUFFER_BYTES) {
            throw new IllegalArgumentException("size_B: an Ethernet frame is 64.." + BUFFER_BYTES + " B here, not " + frame);
        }
        int payload = frame - ETHERNET_HEADER_AND_FCS;
        Rank src = job.rank(0);
        Rank dst = job.rank(1);
        int capacity = job.cluster().datagramCapacity();
        if (payload > capacity) {
            throw new IllegalArgumentException("size_B: a frame of " + frame + " B carries " + payload
                    + " B of payload, more than the " + capacity + " B a packet carries (transport.mtu); valid: 64.."
                    + (capacity + ETHERNET_HEADER_AND_FCS));
        }
        int txRing = ringKey(src);
        int rxRing = ringKey(dst);
        DatagramQueue tx = src.openDatagramQueue("pktgen", CQ_DEPTH, payload, true);
        DatagramQueue rx = dst.openDatagramQueue("pktgen", CQ_DEPTH, payload, false);
        tx.sendTo(dst, rx);
        for (int slot = 0; slot < ring; slot++) {
            rx.receive(slot, dst.segment() + (long) slot * BUFFER_BYTES, BUFFER_BYTES, rxRing);
        }
        long[] span = new long[2];
        int[] received = new int[1];
        boolean[] intact = {true};
        boolean[] sent = {true};
        long[] postedAt = new long[ring];
        new SimProcess(job.simulator(), src.node(), "pktgen_tx", ctx -> {
            span[0] = ctx.now();
            int inFlight = 0;
            for (int i = 0; i < packets; i++) {
                while (inFlight == ring) {
                    sent[0] &= tx.await(ctx).ok();
                    inFlight--;
                }
                int slot = i % ring;
                long va = src.segment() + (long) slot * BUFFER_BYTES;
                src.memory().writeTag(va, payload, TAG_BASE + i, 0);
                postedAt[slot] = ctx.now();
                tx.send(i, va, payload, txRing);
                inFlight++;
            }
            while (inFlight-- > 0) {
                sent[0] &= tx.await(ctx).ok();
            }
        }).start();
        byte[] scratch = new byte[payload];
        // A daemon: a lost frame leaves it waiting, and the run unverified rather than deadlocked.
        new SimProcess(job.simulator(), dst.node(), "pktgen_rx", ctx -> {
            while (received[0] < packets) {
                CompletionEntry wc = rx.await(ctx);
                int slot = (int) wc.wrId();
                int i = received[0]++;
                long va = dst.segment() + (long) slot * BUFFER_BYTES;
                dst.memory().read(va, scratch, 0, payload);
                intact[0] &= wc.ok() && wc.bytes() == payload
                        && slot == i % ring && ContentTag.matches(TAG_BASE + i, 0, scratch, 0, payload);
                latencies.record(ctx.now() - postedAt[i % ring]);
                span[1] = ctx.now();
                rx.receive(slot, va, BUFFER_BYTES, rxRing);
            }
        }).daemon().start();
        return new Run() {
            @Override
            public double bytesPerSecond() {
                long ps = span[1] - span[0];
                return ps <= 0 ? 0 : (double) frame * received[0] / (ps / (double) Time.S);
            }

            @Override
            public boolean verified() {
                return sent[0] && intact[0] && received[0] == packets;
            }

            @Override
            public Map<String, Object> extraMetrics() {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put(PACKETS, (long) received[0]);
                return m;
            }
        };
    }

    /**
     * The ring's key: the segment the policy registered, or with an IOMMU on the NIC's DMA path
     * the same (pinned) pages as an IOMMU region, translated through the process page table.
     */
    private static int ringKey(Rank r) {
        int key = r.segmentKeyForRawQueues();
        if (key == Rank.NO_KEY) {
            throw new IllegalArgumentException("pktgen needs a policy that registers the whole segment up front"
                    + " (its rings are pinned), as pin-all does");
        }
        return key;
    }
}
