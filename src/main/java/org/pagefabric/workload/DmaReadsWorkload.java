package org.pagefabric.workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.comm.Job;
import org.pagefabric.comm.Rank;
import org.pagefabric.hw.iommu.Iommu;
import org.pagefabric.hw.iommu.Translation;
import org.pagefabric.hw.mem.ContentTag;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.hw.node.Node;
import org.pagefabric.hw.node.SharedVirtualAddressing;
import org.pagefabric.hw.os.AddressSpace;
import org.pagefabric.hw.os.Pte;
import org.pagefabric.hw.pcie.PcieLink;
import org.pagefabric.reg.Capability;
import org.pagefabric.sim.EventHandler;
import org.pagefabric.sim.RandomStream;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;
import org.pagefabric.sim.stat.LatencyHistogram;

/**
 * pcie-bench's DMA read benchmark (Neugebauer et al., SIGCOMM 2018, §4: BW_DMA_RD and LAT_DMA_RD
 * with random addresses): a device issues {@code iterations} reads of {@code size_B} bytes at
 * random {@code size_B}-aligned offsets (a read never crosses a page) of a host buffer of {@code window_B} bytes, keeping
 * {@code outstanding} reads in flight (1 measures latency, as LAT_DMA_RD does).
 *
 * <p>Each read crosses the node's PCIe link as a non-posted request and its completions. With
 * {@code nic.iommu} the node's IOMMU translates the read's address first, through the process page
 * table (shared virtual addressing): an IOTLB hit costs its lookup, a miss a page walk, which may
 * wait for one of the IOMMU's walk slots ({@code iommu.walk.concurrent}). Without it the device
 * reads the physical address the host gave it. The buffer is the rank's segment, pinned by the
 * policy, and spans at least one 2 MiB page; its page size is the kernel's ({@code os.thp: always} backs it with 2 MiB pages).
 *
 * <p>The benchmark runs on node 0; node 1 only completes the cluster the network models need
 * (they connect two nodes at least) and stays idle.
 *
 * <p>The host fills the buffer with one content tag; every read copies the bytes at the address
 * it was translated to and checks them against the tag, so a wrong translation fails the run.
 */
public final class DmaReadsWorkload extends AbstractWorkload {
    /** Parameter: the buffer the reads fall in. */
    public static final String WINDOW = "window_B";
    /** Parameter: reads in flight at once. */
    public static final String OUTSTANDING = "outstanding";
    /** Metric: read bandwidth in Gb/s, as pcie-bench reports it. */
    public static final String BANDWIDTH_GBPS = "bandwidth_Gbps";
    /** Metric: mean latency of one read in ns. */
    public static final String LATENCY_NS = "latency_ns";
    /** Metric: reads whose translation missed the IOTLB, in percent (0 without an IOMMU). */
    public static final String MISS_PCT = "iotlb_miss_pct";
    /** Metric: the page size backing the buffer, in KiB. */
    public static final String PAGE_KIB = "page_KiB";
    private static final long TAG = 0xD3A0_0000_0000L;
    private static final long HUGE_PAGE = 2L << 20;
    private static final List<String> EXTRA = List.of(BANDWIDTH_GBPS, LATENCY_NS, MISS_PCT, PAGE_KIB);
    private static final List<WorkloadParameter> PARAMETERS = List.of(StandardParameters.size(64),
            StandardParameters.iterations(),
            WorkloadParameter.integer(WINDOW, 8192, "B", "bytes of the host buffer the random reads fall in", 4096,
                    1L << 36),
            WorkloadParameter.integer(OUTSTANDING, 1, "", "reads the device keeps in flight", 1, 1024));

    /** The workload with its declared metadata. */
    public DmaReadsWorkload() {
        super(WorkloadDescriptor.of("dma-reads", "pcie-bench DMA reads: a device reads size_B at random offsets of"
                + " window_B, outstanding at a time, through the IOMMU when nic.iommu").parameters(PARAMETERS)
                .higherIsBetter(BANDWIDTH_GBPS).metrics(PointRun.metricsAfterVerified(EXTRA)).ownTraffic()
                // pcie-bench's host buffer is at least as large as a superpage, so that a window smaller than one
                // still lies in one
                .segment(p -> Math.max(p.longValue(WINDOW), HUGE_PAGE))
                // pcie-bench's driver pins its buffer: the device's DMA engine cannot take a page fault
                .requires(Capability.PINNED_UP_FRONT).build());
    }

    @Override
    protected Run start(Job job, Params params, LatencyHistogram latencies) {
        int size = Math.toIntExact(StandardParameters.size(params));
        long window = params.longValue(WINDOW);
        int outstanding = params.intValue(OUTSTANDING);
        if (size < 1 || PhysicalMemory.PAGE_SIZE % size != 0 || window % PhysicalMemory.PAGE_SIZE != 0) {
            throw new IllegalArgumentException("size_B: " + size + " must divide a 4 KiB page, and window_B ("
                    + window + ") be a whole number of pages");
        }
        Rank rank = job.rank(0);
        Node node = rank.node();
        AddressSpace process = rank.process();
        rank.memory().writeTag(rank.segment(), window, TAG, 0);
        Iommu iommu = rank.dmaIommu();
        if (iommu != null && iommu.bank(rank.pasid()) == null) {
            SharedVirtualAddressing.bind(iommu, rank.pasid(), process);
        }
        Device device = new Device(job.simulator(), node, rank, iommu, size, window,
                StandardParameters.iterations(params), latencies);
        device.start(outstanding);
        long leaf = process.translate(rank.segment());
        long pageKiB = (leaf & Pte.HUGE) != 0 ? 2048 : 4;
        return new Run() {
            @Override
            public double bytesPerSecond() {
                return device.bytesPerSecond();
            }

            @Override
            public boolean verified() {
                return device.verified();
            }

            @Override
            public String failure() {
                return device.failure();
            }

            @Override
            public Map<String, Object> extraMetrics() {
                Map<String, Object> m = new LinkedHashMap<>();
                m.put(BANDWIDTH_GBPS, Math.round(device.bytesPerSecond() * 8 / 1e6) / 1e3);
                m.put(LATENCY_NS, Math.round(latencies.mean() / Time.NS * 10) / 10.0);
                m.put(MISS_PCT, device.missPercent());
                m.put(PAGE_KIB, pageKiB);
                return m;
            }
        };
    }

    /** The device's DMA engine: each slot translates, reads, checks, then starts its next read. */
    private static final class Device implements EventHandler {
        private static final int EV_REQUEST = 0;
        private static final int EV_COMPLETION = 1;

        private final Simulator sim;
        private final PcieLink pcie;
        private final PhysicalMemory memory;
        private final Iommu iommu;
        private final Rank rank;
        private final AddressSpace process;
        private final RandomStream random;
        private final int size;
        private final long reads;
        private final long window;
        private final LatencyHistogram latencies;
        private final Translation translation = new Translation();
        private final byte[] data;
        private long[] startedAt = new long[0];
        private long[] offsetOf = new long[0];
        private long[] physicalOf = new long[0];
        private long issued;
        private long completed;
        private long misses;
        private long firstIssue;
        private long lastCompletion;
        private String failure;

        Device(Simulator sim, Node node, Rank rank, Iommu iommu, int size, long window, long reads,
                LatencyHistogram latencies) {
            this.sim = sim;
            this.pcie = node.pcie();
            this.memory = node.memory();
            this.iommu = iommu;
            this.rank = rank;
            this.process = rank.process();
            this.random = sim.randomStream(node.name() + ".dma-reads");
            this.size = size;
            this.reads = reads;
            this.window = window;
            this.latencies = latencies;
            this.data = new byte[size];
        }

        void start(int slots) {
            startedAt = new long[slots];
            offsetOf = new long[slots];
            physicalOf = new long[slots];
            firstIssue = sim.now();
            for (int s = 0; s < slots && issued < reads; s++) {
                next(s);
            }
        }

        /** Draws the slot's next address and translates it; the request leaves once translated. */
        private void next(int slot) {
            issued++;
            long offset = random.nextLong(window / size) * size;
            long va = rank.segment() + offset;
            startedAt[slot] = sim.now();
            offsetOf[slot] = offset;
            long delay = 0;
            if (iommu == null) {
                physicalOf[slot] = process.physicalAddress(va);
            } else if (iommu.translate(rank.pasid(), va, false, translation)) {
                physicalOf[slot] = translation.physicalAddress();
                delay = translation.costPs();
                if (translation.levelsWalked() > 0) {
                    misses++;
                }
            } else {
                physicalOf[slot] = -1;
            }
            if (physicalOf[slot] < 0) {
                fail("the read of offset " + offset + " found no translation");
                return;
            }
            sim.schedule(delay, this, EV_REQUEST, slot);
        }

        @Override
        public void handle(int type, long arg) {
            int slot = (int) arg;
            if (type == EV_REQUEST) {
                pcie.dmaRead(physicalOf[slot], size, this, EV_COMPLETION, slot);
                return;
            }
            completed++;
            lastCompletion = sim.now();
            latencies.record(sim.now() - startedAt[slot]);
            long pa = physicalOf[slot];
            memory.backing().read(pa >>> PhysicalMemory.PAGE_SHIFT, (int) (pa & (PhysicalMemory.PAGE_SIZE - 1)), data,
                    0, size);
            if (!ContentTag.matches(TAG, offsetOf[slot], data, 0, size)) {
                fail("the read of offset " + offsetOf[slot] + " at physical address " + pa
                        + " found other bytes than the host wrote there");
            }
            if (issued < reads && failure == null) {
                next(slot);
            }
        }

        private void fail(String why) {
            if (failure == null) {
                failure = why;
            }
        }

        double bytesPerSecond() {
            return Run.perSecond((double) size * completed, lastCompletion - firstIssue);
        }

        boolean verified() {
            return failure == null && completed == reads;
        }

        String failure() {
            return failure != null ? failure : completed + " of " + reads + " reads completed";
        }

        double missPercent() {
            return completed == 0 ? 0 : Math.round(1000.0 * misses / issued) / 10.0;
        }
    }
}
