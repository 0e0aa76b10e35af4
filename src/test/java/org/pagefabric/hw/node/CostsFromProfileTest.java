package org.pagefabric.hw.node;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.pagefabric.config.Profile;
import org.pagefabric.config.ProfileException;
import org.pagefabric.config.ProfileRegistry;
import org.pagefabric.hw.cpu.CpuCosts;
import org.pagefabric.hw.iommu.IommuConfig;
import org.pagefabric.hw.iommu.IommuCosts;
import org.pagefabric.hw.iommu.ReplacementPolicy;
import org.pagefabric.hw.net.LinkFaults;
import org.pagefabric.hw.net.NetCosts;
import org.pagefabric.hw.net.RetransmissionMode;
import org.pagefabric.hw.net.TransportConfig;
import org.pagefabric.hw.nic.NicCosts;
import org.pagefabric.hw.os.OsCosts;
import org.pagefabric.hw.os.ThpMode;
import org.pagefabric.hw.pcie.PcieCosts;
import org.pagefabric.hw.pcie.PcieLink;
import org.pagefabric.sim.Simulator;
import org.pagefabric.sim.Time;

/** The records carry the profile's values; values the hardware cannot take name their parameter. */
class CostsFromProfileTest {
    @TempDir
    Path dir;

    private static final Profile PART = ProfileRegistry.load("part-forth");
    private static final Profile DEFAULT = ProfileRegistry.load("default");

    @Test
    void partTransportIsSixteenKibBlocksOfTwoHundredFiftySixByteSelectivePackets() {
        TransportConfig t = CostsFromProfile.transport(PART);
        assertEquals(16 * 1024, t.blockBytes());
        assertEquals(256, t.mtuBytes());
        assertEquals(64, t.packetsPerBlock());
        assertEquals(RetransmissionMode.SELECTIVE, t.mode());
        assertEquals(100 * Time.US, t.retransmitTimeoutPs());
        assertEquals(8, t.windowBlocks());
        assertTrue(t.nackCorrupt());
        assertEquals(10 * Time.MS, t.faultWaitTimeoutPs(), "the back-stop for a lost explicit retransmission request");
        TransportConfig ib = CostsFromProfile.transport(DEFAULT);
        assertEquals(RetransmissionMode.GO_BACK_N, ib.mode());
        assertEquals(64 * 1024, ib.blockBytes());
        assertEquals(4096, ib.mtuBytes());
        assertEquals(7, ib.retryLimit());
        assertFalse(ib.nackCorrupt());
        assertEquals(640 * Time.US, ib.rnrBackoffPs());
    }

    @Test
    void partNetworkAndBus() {
        NetCosts n = CostsFromProfile.net(PART);
        assertEquals(1_250_000_000L, n.link().bytesPerSecond());
        assertEquals(0, n.link().latencyPs());
        assertEquals(150 * Time.NS, n.switchHopLatencyPs());
        assertEquals(8 + 16, n.headerBytes(), "link framing plus transport header");
        assertEquals(LinkFaults.NONE, CostsFromProfile.linkFaults(PART));
        PcieCosts b = CostsFromProfile.pcie(PART);
        assertEquals(75 * Time.NS, b.latencyPs());
        assertEquals(16_000_000_000L, b.bytesPerSecond());
        assertEquals(0, b.tlpOverheadBytes());
        assertEquals(256, b.maxPayloadBytes());
        assertEquals(150 * Time.NS, b.hostCompleterPs());
        assertEquals(24, CostsFromProfile.pcie(DEFAULT).tlpOverheadBytes());
    }

    @Test
    void partIommuIsTheSmmuOfTheSeed() {
        IommuConfig c = CostsFromProfile.iommuConfig(PART);
        assertEquals(2, c.iotlbLevels().size());
        assertEquals(128, c.iotlbLevels().get(0).entries());
        assertEquals(128, c.iotlbLevels().get(0).ways());
        assertEquals(0, c.iotlbLevels().get(0).lookupPs(), "the L1 lookup is part of iommu.processing");
        assertEquals(2048, c.iotlbLevels().get(1).entries());
        assertEquals(4, c.iotlbLevels().get(1).ways());
        assertEquals(ReplacementPolicy.LRU, c.iotlbLevels().get(1).policy());
        assertNull(c.contextCache());
        assertEquals(16, c.contextBanks());
        IommuCosts k = CostsFromProfile.iommu(PART);
        assertEquals(10 * Time.NS, k.processingPs());
        assertEquals(120 * Time.NS, k.walkAccessPs());
        assertEquals(0, k.contextFetchPs());
        IommuConfig gem5 = CostsFromProfile.iommuConfig(ProfileRegistry.load("aa-gem5"));
        assertEquals(1, gem5.iotlbLevels().size(), "the gem5 bridge has one PTE cache");
        assertEquals(16, gem5.contextCache().entries());
    }

    @Test
    void cpuSplitsTheMeasuredInterruptLatencyIntoDeliveryAndEntry() {
        CpuCosts c = CostsFromProfile.cpu(ProfileRegistry.load("aa-crayxe6"));
        assertEquals(3 * Time.US, c.interruptDeliveryPs() + c.interruptEntryPs(), "002 §5.2's 3 us in total");
        assertEquals(300 * Time.NS, c.interruptDeliveryPs());
        CpuCosts part = CostsFromProfile.cpu(PART);
        assertEquals(5 * Time.US, part.contextSwitchPs());
        assertEquals(100 * Time.NS, part.idleExitPs());
        assertEquals(100 * Time.NS, part.pollIterationPs());
        assertEquals(4, CostsFromProfile.cores(PART));
    }

    @Test
    void osMapsPinningToGupAndTheMinorFaultExcludesZeroing() {
        OsCosts part = CostsFromProfile.os(PART);
        assertEquals(2 * Time.US, part.minorFaultPs(), "3 us first touch (000 §V) minus 1 us of zeroing");
        assertEquals(1 * Time.US, part.zeroFillPerPagePs());
        assertEquals(2 * Time.US, part.gupBasePs());
        assertEquals(300 * Time.NS, part.gupPerPagePs());
        assertEquals(150 * Time.NS, part.putPagePerPagePs());
        assertEquals(2 * Time.US, part.mlockBasePs());
        assertEquals(ThpMode.NEVER, CostsFromProfile.kernelConfig(PART).thp());
        assertEquals(ThpMode.MADVISE, CostsFromProfile.kernelConfig(DEFAULT).thp());
        OsCosts xeon = CostsFromProfile.os(ProfileRegistry.load("openmx-xeon5460"));
        // Table 1's pin+unpin cost, two thirds of it for pinning
        assertEquals(867 * Time.NS, xeon.gupBasePs());
        assertEquals(100 * Time.NS, xeon.gupPerPagePs());
        assertEquals(50 * Time.NS, xeon.putPagePerPagePs());
        assertEquals(0, CostsFromProfile.swapSlots(DEFAULT));
        assertEquals(256L << 18, CostsFromProfile.memlockLimitPages(DEFAULT));
        assertEquals(16L << 30, CostsFromProfile.memoryBytes(PART));
    }

    @Test
    void nicCostsComeFromTheNicParameters() {
        NicCosts d = CostsFromProfile.nic(DEFAULT);
        assertEquals(new NicCosts(300 * Time.NS, 100 * Time.NS, 650 * Time.NS, 250 * Time.NS, 700 * Time.NS), d);
        NicCosts part = CostsFromProfile.nic(PART);
        assertEquals(300 * Time.NS, part.dmaReadStartPs());
        assertTrue(CostsFromProfile.nicUsesIommu(PART));
        assertEquals(8, CostsFromProfile.nicKeyTagBits(DEFAULT), "a ConnectX mkey's 8-bit key");
        assertFalse(CostsFromProfile.nicUsesIommu(DEFAULT));
    }

    @Test
    void aMeasuredRoundTripLeavesTheHostCompleterWhatTheLinkDoesNotTake() {
        Profile bdw = ProfileRegistry.load("pciebench-bdw-nfp6000");
        // 600 ns less two 200 ns crossings and 14.219 ns of serialization (24 B + 88 B at 7.877 GB/s)
        assertEquals(186 * Time.NS, CostsFromProfile.pcie(bdw).hostCompleterPs());
        assertEquals(199 * Time.NS, CostsFromProfile.pcie(ProfileRegistry.load("pciebench-ivb-nfp6000")).hostCompleterPs());
        for (String latency : new String[] {"100 ns", "150 ns", "250 ns", "292 ns"}) {
            PcieCosts c = CostsFromProfile.pcie(bdw.withOverrides(java.util.Map.of("pcie.latency", latency), "--set"));
            PcieLink link = new PcieLink(new Simulator(1), "pcie", c);
            assertEquals(600 * Time.NS, link.readLatencyPs(0, 64), Time.NS / 2,
                    "an idle 64 B read takes the measured round trip whatever the split, at " + latency);
            assertEquals(0, c.hostCompleterPs() % Time.NS, "kept to whole nanoseconds");
        }
        assertEquals(185 * Time.NS, CostsFromProfile.pcie(bdw.withOverrides(java.util.Map.of("pcie.latency", "200.5 ns"),
                "--set")).hostCompleterPs(), "a longer crossing leaves the completer less");
        assertEquals(150 * Time.NS, CostsFromProfile.pcie(DEFAULT).hostCompleterPs(), "no round trip: read as given");
    }

    @Test
    void aLatencyTheMeasuredRoundTripCannotHoldSaysTheLargestThatFits() {
        Profile bdw = ProfileRegistry.load("pciebench-bdw-nfp6000");
        ProfileException e = assertThrows(ProfileException.class,
                () -> CostsFromProfile.pcie(bdw.withOverrides(java.util.Map.of("pcie.latency", "293 ns"), "--set")));
        assertEquals("pcie.latency", e.field());
        assertEquals("--set", e.file());
        assertTrue(e.getMessage().contains("valid: 0 to 292.89 ns"), e.getMessage());
    }

    static Stream<Arguments> unusable() {
        return Stream.of(
            Arguments.of("transport.block_size", "transport.block_size: {value: 5000, unit: B, source: \"assumed: x\"}",
                "is not a whole number of packets of transport.mtu (4096 B)"),
            Arguments.of("cpu.interrupt_delivery", "cpu.interrupt_delivery: {value: 5, unit: us, source: \"assumed: x\"}",
                "exceeds cpu.interrupt (1 us)"),
            Arguments.of("os.zero_fill.per_page", "os.zero_fill.per_page: {value: 3, unit: us, source: \"assumed: x\"}",
                "exceeds os.page_fault.minor (2.3 us)"),
            Arguments.of("iommu.iotlb.l2.ways", "iommu.iotlb.l2.ways: {value: 3, source: \"assumed: x\"}"
                + "\n  nic.iommu: {value: true, source: \"assumed: the IOMMU is built, so its shape is read\"}",
                "must divide iommu.iotlb.l2.entries (1024)"),
            Arguments.of("memory.page_size", "memory.page_size: {value: 64, unit: KiB, source: \"assumed: x\"}",
                "is not supported"),
            Arguments.of("memory.size", "memory.size: {value: 1000, unit: MB, source: \"assumed: x\"}",
                "is not a whole number of 4096 B pages"),
            Arguments.of("pcie.latency", "pcie.latency: {value: 400, unit: ns, source: \"assumed: x\"}"
                + "\n  pcie.round_trip: {value: 600, unit: ns, source: \"assumed: a measured round trip\"}",
                "leaves the host completer no part of pcie.round_trip (600 ns)"));
    }

    @ParameterizedTest
    @MethodSource("unusable")
    void aValueTheHardwareCannotTakeNamesItsParameterFileAndLine(String param, String line, String problem) {
        Path f = write("bad.yaml", "name: bad\ndescription: d\nextends: default\nparameters:\n  " + line + "\n");
        Profile p = ProfileRegistry.loadFile(f);
        ProfileException e = assertThrows(ProfileException.class, () -> Cluster.build(new Simulator(1), p, 2));
        assertEquals(param, e.field());
        assertEquals(f.toString(), e.file());
        assertEquals(5, e.line());
        assertTrue(e.getMessage().contains(problem), e.getMessage());
        assertTrue(e.getMessage().contains("(profile bad)"), e.getMessage());
    }

    @Test
    void aMissingValueOrAnUnknownTopologyNamesTheParameter() {
        Path missing = write("missing.yaml", "name: missing\ndescription: d\nparameters:\n"
                + "  transport.window: {source: \"assumed: x\"}\n");
        ProfileException e = assertThrows(ProfileException.class, () -> ProfileRegistry.resolve(missing.toString()));
        assertEquals("transport.window", e.field());
        Path ring = write("ring.yaml", "name: ring\ndescription: d\nparameters:\n"
                + "  network.topology: {value: ring, source: \"assumed: x\"}\n");
        e = assertThrows(ProfileException.class, () -> ProfileRegistry.resolve(ring.toString()));
        assertTrue(e.getMessage().contains("network.topology"), e.getMessage());
        assertTrue(e.getMessage().contains("star"), e.getMessage());
        Path zero = write("zero.yaml", "name: zero\ndescription: d\nparameters:\n"
                + "  transport.window: {value: 0, source: \"assumed: x\"}\n");
        e = assertThrows(ProfileException.class, () -> ProfileRegistry.resolve(zero.toString()));
        assertTrue(e.getMessage().contains("transport.window"), e.getMessage());
    }

    @Test
    void keyTagBitsLeavingFewerThanSixteenIndexBitsAreRefusedWhenTheProfileIsRead() {
        Path wide = write("wide.yaml", "name: wide\ndescription: d\nextends: default\nparameters:\n"
                + "  nic.key_tag_bits: {value: 17, source: \"assumed: x\"}\n");
        ProfileException e = assertThrows(ProfileException.class, () -> ProfileRegistry.loadFile(wide));
        assertEquals("nic.key_tag_bits.value", e.field());
        assertEquals(5, e.line());
        assertTrue(e.getMessage().contains("0 to 16"), e.getMessage());
        Path twelve = write("twelve.yaml", "name: twelve\ndescription: d\nextends: default\nparameters:\n"
                + "  nic.key_tag_bits: {value: 12, source: \"assumed: x\"}\n");
        assertEquals(12, CostsFromProfile.nicKeyTagBits(ProfileRegistry.loadFile(twelve)));
    }

    @Test
    void theChosenTopologyIsBuilt() {
        Path mesh = write("mesh.yaml", "name: mesh\ndescription: d\nextends: part-forth\nparameters:\n"
                + "  network.topology: {value: full_mesh, source: \"assumed: the QFDB's all-to-all links\"}\n"
                + "  link.loss: {value: 1, unit: \"%\", source: \"assumed: a lossy test fabric\"}\n");
        Profile p = ProfileRegistry.loadFile(mesh);
        Cluster c = Cluster.build(new Simulator(1), p, 4);
        assertEquals(12, c.network().topology().links().size(), "one link per ordered pair");
        assertEquals(new LinkFaults(0.01, 0), CostsFromProfile.linkFaults(p));
    }

    private Path write(String name, String text) {
        try {
            Path f = dir.resolve(name);
            Files.writeString(f, text);
            return f;
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
