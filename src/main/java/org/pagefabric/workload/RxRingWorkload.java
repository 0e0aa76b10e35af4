package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.iommu.Iommu;
import org.pagefabric.hw.iommu.Translation;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.node.SharedVirtualAddressing;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.hw.pcie.PcieLink;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * A NIC receiving a TCP stream into its receive rings, the data path of Farshin, Rizzo, Elmeleegy
 * and Kostić, "Overcoming the IOTLB wall for multi-100-Gbps Linux-based networking" (PeerJ
 * Computer Science 9:e1385, 2023; §4.1 and §4.2.1 of Farshin's 2023 KTH dissertation, which
 * reprints it): packets of {@code mtu_B} arrive at {@code offered_Gbps} of TCP payload (at most the
 * line's {@code line_Gbps}), spread round-robin over {@code queues} receive queues of
 * {@code descriptors} buffers each; the NIC writes each frame into its queue's next buffer, in ring
 * order, keeping {@code outstanding} writes in flight.
 *
 * <p>The buffer size follows the mlx5 driver's rule (dissertation, Appendix B.2): the hardware MTU
 * is {@code mtu_B} + 22 B, and a buffer is 1024 B up to a hardware MTU of 640 B, 2048 B up to
 * 1664 B and 4096 B up to 3712 B (two 2048 B buffers share a 4 KiB page at MTU 1500). Larger MTUs
 * use several buffers per frame, which is not modelled and refused. A frame puts {@code mtu_B} + 14 B
 * (its Ethernet header; the FCS is stripped) on PCIe, occupies {@code mtu_B} + 38 B on the wire and
 * carries {@code mtu_B} - 52 B of TCP payload (20 B IP, 20 B TCP and 12 B of options), which is
 * what the throughput counts, as iPerf does.
 *
 * <p>With {@code nic.iommu} every write is translated first by the node's IOMMU through the process
 * page table (shared virtual addressing): an IOTLB hit costs its lookup, a miss a page walk, which
 * may wait for one of the IOMMU's walk slots ({@code iommu.walk.concurrent}); the write leaves once
 * translated. Buffers are recycled in ring order: the no-drop regime, without the buffer shuffling
 * that drops cause. Every translation is checked against the CPU's own translation of the buffer,
 * so a wrong one fails the run. The benchmark runs on node 0; node 1 stays idle.
 */
public final class RxRingWorkload extends AbstractWorkload {
    /** Parameter: the IP MTU. */
    public static final String MTU = "mtu_B";
    /** Parameter: receive queues, one per core. */
    public static final String QUEUES = "queues";
    /** Parameter: receive buffers in each queue's ring. */
    public static final String DESCRIPTORS = "descriptors";
    /** Parameter: DMA writes the NIC keeps in flight. */
    public static final String OUTSTANDING = "outstanding";
    /** Parameter: the sender's rate of TCP payload. */
    public static final String OFFERED = "offered_Gbps";
    /** Parameter: the link's rate. */
    public static final String LINE = "line_Gbps";
    /** Metric: TCP payload received, in Gb/s. */
    public static final String THROUGHPUT_GBPS = "throughput_Gbps";
    /** Metric: IOTLB misses per MiB of TCP payload (0 without an IOMMU). */
    public static final String MISSES_PER_MIB = "iotlb_misses_per_MiB";
    /** Metric: the receive buffer size the driver's rule gives. */
    public static final String BUFFER_B = "buffer_B";
    /** Metric: the page size backing the buffers, in KiB. */
    public static final String PAGE_KIB = "page_KiB";
    /** Hardware MTU over IP MTU: Ethernet header (14 B), VLAN tag (4 B) and FCS (4 B). */
    static final int HW_MTU_EXTRA = 22;
    /** Bytes a frame puts on PCIe beyond its IP MTU: the Ethernet header. */
    static final int FRAME_EXTRA = 14;
    /** Bytes a frame occupies on the wire beyond its IP MTU: header, FCS, preamble and gap. */
    static final int WIRE_EXTRA = 38;
    /** IP MTU over TCP payload: IP and TCP headers and 12 B of TCP options. */
    static final int TCP_IP_HEADERS = 52;
    private static final long HUGE_PAGE = 2L << 20;
    private static final List<String> EXTRA = List.of(THROUGHPUT_GBPS, MISSES_PER_MIB, BUFFER_B, PAGE_KIB);
    private static final List<WorkloadParameter> PARAMETERS = List.of(
            WorkloadParameter.integer(MTU, 1500, "B", "IP MTU; the receive buffer follows mlx5's rule", 576, 3690),
            WorkloadParameter.integer(StandardParameters.ITERATIONS, 20000, "", "packets received; no warm-up, so the"
                    + " first touch of each page counts", 1, 1L << 30),
            WorkloadParameter.integer(QUEUES, 32, "", "receive queues the packets are spread over", 1, 256),
            WorkloadParameter.integer(DESCRIPTORS, 1024, "", "receive buffers in each queue's ring", 1, 8192),
            WorkloadParameter.integer(OUTSTANDING, 32, "", "DMA writes the NIC keeps in flight", 1, 1024),
            WorkloadParameter.decimalAbove(OFFERED, 200, "Gb/s", "the sender's rate of TCP payload", 0, 10000),
            WorkloadParameter.decimalAbove(LINE, 200, "Gb/s", "the link's rate", 0, 10000));

    /** The workload with its declared metadata. */
    public RxRingWorkload() {
        super(WorkloadDescriptor.of("rx-ring", "a NIC receiving a TCP stream into receive rings, each frame written"
                + " through the IOMMU when nic.iommu; TCP payload throughput and IOTLB misses per MiB")
                .parameters(PARAMETERS).higherIsBetter(THROUGHPUT_GBPS).metrics(PointRun.metricsAfterVerified(EXTRA))
                .ownTraffic()
                // at least one superpage, so that os.thp: always backs even a small ring with one
                .segment(p -> Math.max(ringBytes(p), HUGE_PAGE))
                // the driver's receive buffers are kernel memory, mapped for DMA as long as they are posted
                .requires(Capability.PINNED_UP_FRONT).build());
    }

    /** The receive buffer mlx5 gives an IP MTU (Appendix B.2 of the dissertation). */
    static int bufferBytes(int mtu) {
        int hw = mtu + HW_MTU_EXTRA;
        if (hw <= 128) {
            return 512;
        }
        if (hw <= 640) {
            return 1024;
        }
        return hw <= 1664 ? 2048 : 4096;
    }

    private static long ringBytes(Params p) {
        return (long) p.intValue(QUEUES) * p.intValue(DESCRIPTORS) * bufferBytes(p.intValue(MTU));
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        int mtu = params.intValue(MTU);
        Rank rank = job.rank(0);
        Node node = rank.node();
        AddressSpace process = rank.process();
        Iommu iommu = rank.dmaIommu();
        if (iommu != null && iommu.bank(rank.pasid()) == null) {
            SharedVirtualAddressing.bind(iommu, rank.pasid(), process);
        }
        double payloadGbps = Math.min(params.doubleValue(OFFERED),
                params.doubleValue(LINE) * (mtu - TCP_IP_HEADERS) / (mtu + WIRE_EXTRA));
        // one packet every gapPs picoseconds: its payload at the offered rate, capped by the line
        double gapPs = (mtu - TCP_IP_HEADERS) * 8.0 * Time.NS / payloadGbps;
        Nic nic = new Nic(job.simulator(), node.pcie(), iommu, rank, mtu, params.intValue(QUEUES),
                params.intValue(DESCRIPTORS), gapPs, StandardParameters.iterations(params), latencies);
        nic.start(params.intValue(OUTSTANDING));
        long leaf = process.translate(rank.segment());
        long pageKiB = (leaf & Pte.HUGE) != 0 ? 2048 : 4;
        return new Run() {
            @Override
            public double bytesPerSecond() {
                return nic.payloadBytesPerSecond();
            }

            @Override
            public boolean verified() {
                return nic.verified();
            }

            @Override
            public String failure() {
                return nic.failure();
            }

            @Override
            public Map<String, Object> extraMetrics() {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put(THROUGHPUT_GBPS, Math.round(nic.payloadBytesPerSecond() * 8 / 1e6) / 1e3);
                m.put(MISSES_PER_MIB, nic.missesPerMiB());
                m.put(BUFFER_B, (long) bufferBytes(mtu));
                m.put(PAGE_KIB, pageKiB);
                return m;
            }
        };
    }

    /** The NIC's receive DMA: each slot takes the next packet once it has arrived, translates, writes. */
    private static final class Nic implements EventHandler {
        private static final int EV_ARRIVED = 0;
        private static final int EV_WRITE = 1;
        private static final int EV_WRITTEN = 2;

        private final Simulator sim;
        private final PcieLink pcie;
        private final Iommu iommu;
        private final Rank rank;
        private final AddressSpace process;
        private final int buffer;
        private final int frame;
        private final int payload;
        private final int queues;
        private final int descriptors;
        private final double gapPs;
        private final long packets;
        private final LatencyHistogram latencies;
        private final Translation translation = new Translation();
        private long[] packetOf = new long[0];
        private long[] arrivalOf = new long[0];
        private long[] physicalOf = new long[0];
        private long firstArrival;
        private long issued;
        private long completed;
        private long misses;
        private long lastCompletion;
        private String failure;

        Nic(Simulator sim, PcieLink pcie, Iommu iommu, Rank rank, int mtu, int queues, int descriptors, double gapPs,
                long packets, LatencyHistogram latencies) {
            this.sim = sim;
            this.pcie = pcie;
            this.iommu = iommu;
            this.rank = rank;
            this.process = rank.process();
            this.buffer = bufferBytes(mtu);
            this.frame = mtu + FRAME_EXTRA;
            this.payload = mtu - TCP_IP_HEADERS;
            this.queues = queues;
            this.descriptors = descriptors;
            this.gapPs = gapPs;
            this.packets = packets;
            this.latencies = latencies;
        }

        void start(int slots) {
            packetOf = new long[slots];
            arrivalOf = new long[slots];
            physicalOf = new long[slots];
            firstArrival = sim.now();
            for (int s = 0; s < slots && issued < packets; s++) {
                next(s);
            }
        }

        /** Takes the next packet, now if it has arrived, else when it does. */
        private void next(int slot) {
            long k = issued++;
            packetOf[slot] = k;
            arrivalOf[slot] = firstArrival + (long) (k * gapPs);
            if (arrivalOf[slot] > sim.now()) {
                sim.schedule(arrivalOf[slot] - sim.now(), this, EV_ARRIVED, slot);
            } else {
                translate(slot);
            }
        }

        /** The address of packet k's buffer: its queue's ring, at the queue's next descriptor. */
        private long bufferAddress(long k) {
            long queue = k % queues;
            long descriptor = (k / queues) % descriptors;
            return rank.segment() + (queue * descriptors + descriptor) * buffer;
        }

        private void translate(int slot) {
            long va = bufferAddress(packetOf[slot]);
            long pa = process.physicalAddress(va);
            long delay = 0;
            if (iommu != null) {
                if (!iommu.translate(rank.pasid(), va, true, translation)) {
                    fail("packet " + packetOf[slot] + "'s buffer at " + va + " has no IOMMU translation");
                    return;
                }
                if (translation.physicalAddress() != pa) {
                    fail("packet " + packetOf[slot] + "'s buffer translated to " + translation.physicalAddress()
                            + ", not to the frame the host reads, " + pa);
                    return;
                }
                delay = translation.costPs();
                if (translation.levelsWalked() > 0) {
                    misses++;
                }
            }
            physicalOf[slot] = pa;
            sim.schedule(delay, this, EV_WRITE, slot);
        }

        @Override
        public void handle(int type, long arg) {
            int slot = (int) arg;
            if (type == EV_ARRIVED) {
                translate(slot);
                return;
            }
            if (type == EV_WRITE) {
                pcie.dmaWrite(physicalOf[slot], frame, this, EV_WRITTEN, slot);
                return;
            }
            completed++;
            lastCompletion = sim.now();
            latencies.record(sim.now() - arrivalOf[slot]);
            if (issued < packets && failure == null) {
                next(slot);
            }
        }

        private void fail(String why) {
            if (failure == null) {
                failure = why;
            }
        }

        double payloadBytesPerSecond() {
            return Run.perSecond((double) payload * completed, lastCompletion - firstArrival);
        }

        double missesPerMiB() {
            double mib = (double) payload * completed / (1 << 20);
            return mib == 0 ? 0 : Math.round(10 * misses / mib) / 10.0;
        }

        boolean verified() {
            return failure == null && completed == packets;
        }

        String failure() {
            return failure != null ? failure : completed + " of " + packets + " packets written";
        }
    }
}
