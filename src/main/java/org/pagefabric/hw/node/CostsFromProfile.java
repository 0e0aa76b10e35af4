package org.pagefabric.hw.node;

import java.util.ArrayList;
import java.util.List;
import org.pagefabric.config.Parameter;
import org.pagefabric.config.Profile;
import org.pagefabric.hw.cpu.CpuCosts;
import org.pagefabric.hw.iommu.IommuConfig;
import org.pagefabric.hw.iommu.IommuCosts;
import org.pagefabric.hw.iommu.IotlbLevelConfig;
import org.pagefabric.hw.iommu.ReplacementPolicy;
import org.pagefabric.hw.mem.PhysicalMemory;
import org.pagefabric.hw.net.FullMesh;
import org.pagefabric.hw.net.LinkFaults;
import org.pagefabric.hw.net.LinkParams;
import org.pagefabric.hw.net.NetCosts;
import org.pagefabric.hw.net.PowerParams;
import org.pagefabric.hw.net.RetransmissionMode;
import org.pagefabric.hw.net.RoutedTopology;
import org.pagefabric.hw.net.Star;
import org.pagefabric.hw.net.Topologies;
import org.pagefabric.hw.net.Topology;
import org.pagefabric.hw.net.TransportConfig;
import org.pagefabric.hw.nic.KeyTable;
import org.pagefabric.hw.nic.NicCosts;
import org.pagefabric.hw.nic.TranslationCacheConfig;
import org.pagefabric.hw.os.Kernel;
import org.pagefabric.hw.os.ForkPinnedPages;
import org.pagefabric.hw.os.KernelConfig;
import org.pagefabric.hw.os.OsCosts;
import org.pagefabric.hw.os.ThpMode;
import org.pagefabric.hw.param.CpuParameters;
import org.pagefabric.hw.param.IommuParameters;
import org.pagefabric.hw.param.LinkParameters;
import org.pagefabric.hw.param.MemoryParameters;
import org.pagefabric.hw.param.NicParameters;
import org.pagefabric.hw.param.OsParameters;
import org.pagefabric.hw.param.PcieParameters;
import org.pagefabric.hw.param.PowerParameters;
import org.pagefabric.hw.param.TransportParameters;
import org.pagefabric.hw.pcie.PcieCosts;
import org.pagefabric.hw.pcie.Tlp;
import org.pagefabric.sim.Time;

/**
 * Each layer's cost record, read from a profile: the one place that maps parameter names to
 * record fields, so a cluster and any hardware a policy adds later use the same values. A value
 * the hardware cannot take (a block that is not a whole number of packets, IOTLB ways that do
 * not divide its entries, an interrupt delivery longer than the whole interrupt) is a
 * {@link org.pagefabric.config.ProfileException} naming the parameter and where it was set.
 */
public final class CostsFromProfile {
    /** Bus bandwidth above this (1 PB/s) would make the PCIe model's fixed-point rate zero. */
    private static final long MAX_BUS_BYTES_PER_SECOND = 1_000_000_000_000_000L;
    /** The read whose round trip {@code pcie.round_trip} gives: one 64 B cache line. */
    private static final int ROUND_TRIP_READ_BYTES = 64;

    private CostsFromProfile() {
    }

    /**
     * The CPU's overheads. The profile gives the whole interrupt latency ({@code cpu.interrupt},
     * the number seeds measure) and the part of it before the core ({@code cpu.interrupt_delivery});
     * the core's entry cost is the rest.
     */
    public static CpuCosts cpu(Profile p) {
        long interrupt = p.time(CpuParameters.INTERRUPT);
        long delivery = p.time(CpuParameters.INTERRUPT_DELIVERY);
        if (delivery > interrupt) {
            throw ProfileValues.invalid(p, CpuParameters.INTERRUPT_DELIVERY,
                    "exceeds cpu.interrupt (" + p.setting(CpuParameters.INTERRUPT).written()
                            + "), of which it is a part");
        }
        return new CpuCosts(p.time(CpuParameters.CONTEXT_SWITCH), interrupt - delivery, delivery,
                p.time(CpuParameters.IDLE_EXIT), p.time(CpuParameters.POLL_ITERATION));
    }

    /** Cores per node. */
    public static int cores(Profile p) {
        return ProfileValues.intCount(p, CpuParameters.CORES);
    }

    /**
     * The host I/O bus between the NIC and the root complex. Where the profile gives a measured
     * read round trip ({@code pcie.round_trip} not 0), the host completer is derived from it: the
     * round trip less what the bus model itself charges an idle 64 B read (two
     * {@code pcie.latency} and the serialization of the header-only request and of the one
     * completion carrying the 64 B), kept to whole nanoseconds, finer than any such measurement
     * resolves. The model's idle read then takes the measured time whatever the assumed split
     * between link and root complex, so a study that moves {@code pcie.latency} moves the split
     * only. Otherwise {@code pcie.host_completer} is read as given.
     */
    public static PcieCosts pcie(Profile p) {
        long rate = p.bytesPerSecond(PcieParameters.BANDWIDTH);
        if (rate > MAX_BUS_BYTES_PER_SECOND) {
            throw ProfileValues.invalid(p, PcieParameters.BANDWIDTH, "is above the 1 PB/s the bus model can time");
        }
        long latency = p.time(PcieParameters.LATENCY);
        int overhead = ProfileValues.intSize(p, PcieParameters.TLP_OVERHEAD);
        int maxPayload = ProfileValues.intSize(p, PcieParameters.MAX_PAYLOAD);
        int maxReadRequest = ProfileValues.intSize(p, PcieParameters.MAX_READ_REQUEST);
        long deviceCompleter = p.time(PcieParameters.DEVICE_COMPLETER);
        long roundTrip = p.time(PcieParameters.ROUND_TRIP);
        if (roundTrip == 0) {
            return new PcieCosts(rate, latency, overhead, maxPayload, maxReadRequest,
                    p.time(PcieParameters.HOST_COMPLETER), deviceCompleter);
        }
        PcieCosts bus = new PcieCosts(rate, latency, overhead, maxPayload, maxReadRequest, 0, deviceCompleter);
        long serialization = bus.serializationPs(overhead) + bus.serializationPs(
                Tlp.wireBytes(0, ROUND_TRIP_READ_BYTES, Math.min(maxPayload, maxReadRequest), overhead));
        long completer = roundTrip - 2 * latency - serialization;
        if (completer < 0) {
            long most = Math.max(0, (roundTrip - serialization) / 2);
            throw ProfileValues.invalid(p, PcieParameters.LATENCY, "leaves the host completer no part of pcie.round_trip ("
                    + p.setting(PcieParameters.ROUND_TRIP).written() + "), which two of it and "
                    + nanoseconds(serialization) + " ns of serialization exceed; valid: 0 to "
                    + nanoseconds(most) + " ns");
        }
        return new PcieCosts(rate, latency, overhead, maxPayload, maxReadRequest,
                Math.floorDiv(completer + Time.NS / 2, Time.NS) * Time.NS, deviceCompleter);
    }

    private static String nanoseconds(long ps) {
        return java.math.BigDecimal.valueOf(ps, 3).stripTrailingZeros().toPlainString();
    }

    /** The IOMMU's costs; IOTLB lookup costs are in {@link #iommuConfig}. */
    public static IommuCosts iommu(Profile p) {
        return new IommuCosts(p.time(IommuParameters.PROCESSING), p.time(IommuParameters.WALK_PER_LEVEL),
                p.time(IommuParameters.CONTEXT_FETCH), p.time(IommuParameters.FAULT_LOG_WRITE),
                p.time(IommuParameters.INVALIDATION));
    }

    /**
     * The IOMMU's structure. The first IOTLB level's lookup costs nothing extra because
     * {@code iommu.processing} includes it; a second level (when {@code iommu.iotlb.l2.entries}
     * is positive) adds {@code iommu.iotlb.l2.lookup}. The context cache, when there is one, is
     * fully associative and its lookup is part of the processing too.
     */
    public static IommuConfig iommuConfig(Profile p) {
        ReplacementPolicy policy = switch (p.choice(IommuParameters.IOTLB_EVICTION)) {
            case "random" -> ReplacementPolicy.RANDOM;
            default -> ReplacementPolicy.LRU;
        };
        List<IotlbLevelConfig> levels = new ArrayList<>(2);
        levels.add(level(p, IommuParameters.IOTLB_L1_ENTRIES, IommuParameters.IOTLB_L1_WAYS, policy, 0));
        if (p.count(IommuParameters.IOTLB_L2_ENTRIES) > 0) {
            levels.add(level(p, IommuParameters.IOTLB_L2_ENTRIES, IommuParameters.IOTLB_L2_WAYS, policy,
                    p.time(IommuParameters.IOTLB_L2_LOOKUP)));
        }
        int contexts = ProfileValues.intCount(p, IommuParameters.CONTEXT_CACHE_ENTRIES);
        IotlbLevelConfig contextCache = contexts == 0 ? null : IotlbLevelConfig.fullyAssociative(contexts, policy, 0);
        return new IommuConfig(levels, contextCache, ProfileValues.intCount(p, IommuParameters.CONTEXT_BANKS),
                ProfileValues.intCount(p, IommuParameters.FAULT_LOG_ENTRIES),
                ProfileValues.intCount(p, IommuParameters.WALK_CONCURRENT));
    }

    private static IotlbLevelConfig level(Profile p, Parameter entriesParam, Parameter waysParam,
            ReplacementPolicy policy, long lookupPs) {
        int entries = ProfileValues.intCount(p, entriesParam);
        int ways = ProfileValues.intCount(p, waysParam);
        if (ways == Parameter.FULL_VALUE) {
            ways = entries; // written "full": fully associative, whatever the entries
        }
        if (ways > entries || entries % ways != 0) {
            throw ProfileValues.invalid(p, waysParam, "must divide " + entriesParam.name() + " ("
                    + entries + "); use " + entries + " for a fully associative level");
        }
        return new IotlbLevelConfig(entries, ways, policy, lookupPs);
    }

    /**
     * The kernel's memory-management costs. The profile's minor fault ({@code os.page_fault.minor},
     * what a first touch measures) includes zeroing the page; the record's minor fault excludes
     * it, so the zero-fill ({@code os.zero_fill.per_page}) is subtracted. Driver pinning
     * ({@code os.pin.*}) is get_user_pages and unpinning per page ({@code os.unpin.per_page}) is
     * put_page.
     */
    public static OsCosts os(Profile p) {
        long minor = p.time(OsParameters.PAGE_FAULT_MINOR);
        long zero = p.time(OsParameters.ZERO_FILL_PER_PAGE);
        if (zero > minor) {
            throw ProfileValues.invalid(p, OsParameters.ZERO_FILL_PER_PAGE, "exceeds os.page_fault.minor ("
                    + p.setting(OsParameters.PAGE_FAULT_MINOR).written() + "), of which it is a part");
        }
        return new OsCosts(minor - zero, zero,
                p.time(OsParameters.PAGE_FAULT_MAJOR),
                p.time(OsParameters.SWAP_OUT_PER_PAGE),
                p.time(OsParameters.RECLAIM_SCAN_PER_PAGE),
                p.time(OsParameters.COW_COPY_PER_PAGE),
                p.time(OsParameters.PIN_BASE),
                p.time(OsParameters.PIN_PER_PAGE),
                p.time(OsParameters.UNPIN_PER_PAGE),
                p.time(OsParameters.MLOCK_BASE),
                p.time(OsParameters.MLOCK_PER_PAGE),
                p.time(OsParameters.MUNLOCK_BASE),
                p.time(OsParameters.MUNLOCK_PER_PAGE),
                p.time(OsParameters.MMAP),
                p.time(OsParameters.MUNMAP_BASE),
                p.time(OsParameters.MUNMAP_PER_PAGE),
                p.time(OsParameters.MPROTECT_BASE),
                p.time(OsParameters.MPROTECT_PER_PAGE),
                p.time(OsParameters.MIGRATE_PER_PAGE),
                p.time(OsParameters.THP_COLLAPSE),
                p.time(OsParameters.THP_SPLIT),
                p.time(OsParameters.FORK_BASE),
                p.time(OsParameters.FORK_PER_PAGE),
                p.time(OsParameters.MMU_NOTIFIER_INVALIDATE),
                p.time(OsParameters.TLB_SHOOTDOWN));
    }

    /** The Linux layout with the profile's transparent-huge-page mode, fork behaviour and unmap batch. */
    public static KernelConfig kernelConfig(Profile p) {
        ThpMode thp = switch (p.choice(OsParameters.THP)) {
            case "never" -> ThpMode.NEVER;
            case "always" -> ThpMode.ALWAYS;
            default -> ThpMode.MADVISE;
        };
        ForkPinnedPages fork = "shared-cow".equals(p.choice(OsParameters.FORK_PINNED_PAGES))
                ? ForkPinnedPages.SHARED_COW : ForkPinnedPages.EARLY_COPY;
        return KernelConfig.linux(thp, p.intCount(OsParameters.MAX_MAP_COUNT), fork)
                .withUnmapBatch((int) Math.min(Integer.MAX_VALUE, p.count(OsParameters.UNMAP_BATCH)));
    }

    /**
     * RAM per node in bytes. The memory model has 4 KiB frames only, so the profile's base page
     * must be 4 KiB and the size a whole number of them.
     */
    public static long memoryBytes(Profile p) {
        if (p.size(MemoryParameters.PAGE_SIZE) != PhysicalMemory.PAGE_SIZE) {
            throw ProfileValues.invalid(p, MemoryParameters.PAGE_SIZE,
                    "is not supported; the memory model has " + PhysicalMemory.PAGE_SIZE + " B base pages");
        }
        return ProfileValues.pages(p, MemoryParameters.SIZE, PhysicalMemory.PAGE_SIZE) * PhysicalMemory.PAGE_SIZE;
    }

    /** Slots of the swap device (one per 4 KiB page; 0 for no swap). */
    public static long swapSlots(Profile p) {
        long slots = ProfileValues.pages(p, OsParameters.SWAP_SIZE, PhysicalMemory.PAGE_SIZE);
        if (slots > Integer.MAX_VALUE) {
            throw ProfileValues.invalid(p, OsParameters.SWAP_SIZE, "is too large; at most "
                    + Integer.MAX_VALUE + " pages of swap");
        }
        return slots;
    }

    /** RLIMIT_MEMLOCK in pages, rounded down as Linux does, for {@link Kernel#createProcess}. */
    public static long memlockLimitPages(Profile p) {
        return p.size(OsParameters.MEMLOCK_LIMIT) / Kernel.PAGE_SIZE;
    }

    /** The NIC's processing costs (bus transfers are the PCIe link's). */
    public static NicCosts nic(Profile p) {
        return new NicCosts(p.time(NicParameters.DOORBELL), p.time(NicParameters.WQE_PROCESSING),
                p.time(NicParameters.DMA_READ_START), p.time(NicParameters.COMPLETION),
                p.time(NicParameters.TRANSLATION_CACHE_MISS));
    }

    /** The NIC's translation cache: entries and ways from the profile, LRU replacement. */
    public static TranslationCacheConfig nicTranslationCache(Profile p) {
        int entries = p.intCount(NicParameters.TRANSLATION_CACHE_ENTRIES);
        int ways = p.intCount(NicParameters.TRANSLATION_CACHE_WAYS);
        try {
            return new TranslationCacheConfig(entries, ways, ReplacementPolicy.LRU,
                    p.flag(NicParameters.TRANSLATION_CACHE_HUGE_ENTRIES));
        } catch (IllegalArgumentException e) {
            throw ProfileValues.invalid(p, NicParameters.TRANSLATION_CACHE_WAYS, e.getMessage());
        }
    }

    /**
     * Bits of a memory key that are its random tag; the parameter's declared range (0 to
     * {@link KeyTable#MAX_TAG_BITS}) leaves the index {@link KeyTable#MIN_INDEX_BITS} bits.
     */
    public static int nicKeyTagBits(Profile p) {
        return ProfileValues.intCount(p, NicParameters.KEY_TAG_BITS);
    }

    /** Whether the NIC reaches memory through an IOMMU (PART, Active Access). */
    public static boolean nicUsesIommu(Profile p) {
        return p.flag(NicParameters.IOMMU);
    }

    /**
     * Links and switches. Every packet carries the link framing ({@code link.packet_overhead})
     * and the transport header ({@code transport.header}) beyond its payload.
     */
    public static NetCosts net(Profile p) {
        long header = p.size(LinkParameters.PACKET_OVERHEAD) + p.size(TransportParameters.HEADER);
        if (header > Integer.MAX_VALUE) {
            throw ProfileValues.invalid(p, LinkParameters.PACKET_OVERHEAD, "plus transport.header is too large");
        }
        return new NetCosts(new LinkParams(p.time(LinkParameters.LATENCY), p.bytesPerSecond(LinkParameters.BANDWIDTH)),
                p.time(LinkParameters.SWITCH_HOP_LATENCY), (int) header);
    }

    /** Power of NICs and routers ({@code power.*}). */
    public static PowerParams power(Profile p) {
        return new PowerParams(p.watts(PowerParameters.NIC_IDLE), p.joules(PowerParameters.NIC_PER_BYTE),
                p.joules(PowerParameters.NIC_PER_PACKET), p.watts(PowerParameters.ROUTER_IDLE_PER_PORT),
                p.joules(PowerParameters.ROUTER_PER_BYTE), p.joules(PowerParameters.ROUTER_PER_PACKET));
    }

    /** How the packets of a message move ({@code network.model}). */
    public static org.pagefabric.hw.net.NetworkModel networkModel(Profile p) {
        return org.pagefabric.hw.net.NetworkModel.of(p.choice(LinkParameters.MODEL));
    }

    /** Packet loss on every link ({@code link.loss}; the fabric has no separate corruption rate). */
    public static LinkFaults linkFaults(Profile p) {
        double loss = p.probability(LinkParameters.LOSS);
        return loss == 0 ? LinkFaults.NONE : new LinkFaults(loss, 0);
    }

    /**
     * The wiring of {@code nodes} nodes named by {@code network.topology}.
     *
     * @throws org.pagefabric.config.ProfileException if the topology cannot hold that many nodes
     */
    public static Topology.Factory topology(Profile p, int nodes) {
        String kind = p.choice(LinkParameters.TOPOLOGY);
        if (kind.equals("two_nodes") && nodes != 2) {
            throw ProfileValues.invalid(p, LinkParameters.TOPOLOGY, "joins exactly 2 nodes, not " + nodes
                    + "; choose full_mesh or star");
        }
        if (nodes < 2) {
            throw ProfileValues.invalid(p, LinkParameters.TOPOLOGY, "needs at least 2 nodes, not " + nodes);
        }
        return switch (kind) {
            case "two_nodes" -> FullMesh.twoNodes();
            case "full_mesh" -> FullMesh.factory(nodes);
            case "star" -> Star.factory(nodes);
            default -> RoutedTopology.factory(Topologies.geometry(kind, nodes));
        };
    }

    /**
     * The bytes one packet carries under {@code p}'s transport ({@code transport.mtu}), checked as
     * {@link #transport} checks it: what a workload's datagram may hold before a cluster exists.
     */
    public static int mtuBytes(Profile p) {
        return transport(p).mtuBytes();
    }

    /** The reliable-connection parameters, for {@code Nic.connect}. */
    public static TransportConfig transport(Profile p) {
        int mtu = ProfileValues.intSize(p, TransportParameters.MTU);
        int block = ProfileValues.intSize(p, TransportParameters.BLOCK_SIZE);
        if (block % mtu != 0) {
            throw ProfileValues.invalid(p, TransportParameters.BLOCK_SIZE, "is not a whole number of packets of"
                    + " transport.mtu (" + p.setting(TransportParameters.MTU).written() + ")");
        }
        RetransmissionMode mode = p.flag(TransportParameters.SELECTIVE_RETRANSMISSION)
                ? RetransmissionMode.SELECTIVE : RetransmissionMode.GO_BACK_N;
        return new TransportConfig(mode, block, mtu,
                ProfileValues.intCount(p, TransportParameters.WINDOW),
                ProfileValues.intCount(p, TransportParameters.ACK_EVERY),
                p.time(TransportParameters.TIMEOUT),
                ProfileValues.intCount(p, TransportParameters.RETRY_LIMIT),
                p.time(TransportParameters.RNR_DELAY),
                ProfileValues.intCount(p, TransportParameters.RNR_RETRY_LIMIT),
                p.flag(TransportParameters.NACK_CORRUPT),
                p.flag(TransportParameters.NACK_ON_GAP),
                p.time(TransportParameters.FAULT_WAIT_TIMEOUT),
                p.time(TransportParameters.REISSUE),
                ProfileValues.intCount(p, TransportParameters.ERR_RETRY_LIMIT));
    }
}
