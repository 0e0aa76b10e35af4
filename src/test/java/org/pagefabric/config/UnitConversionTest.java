package org.pagefabric.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pagefabric.hw.param.CpuParameters;
import org.pagefabric.hw.param.IommuParameters;
import org.pagefabric.hw.param.LinkParameters;
import org.pagefabric.hw.param.MemoryParameters;
import org.pagefabric.hw.param.OsParameters;
import org.pagefabric.hw.param.TransportParameters;

/** Units convert exactly: decimal inputs give exact picoseconds, bytes, hertz and bytes per second. */
class UnitConversionTest {
    @TempDir
    Path dir;

    private Profile with(String param, String value, String unit) {
        return ProfileRegistry.loadFile(ProfileTestFiles.write(dir, "t.yaml",
                ProfileTestFiles.oneSetting(param, value, unit, "assumed: test")));
    }

    @ParameterizedTest(name = "{0} {1} = {2} ps")
    @CsvSource({
        "0.06, ns, 60",
        "1, ps, 1",
        "150, ns, 150000",
        "2.5, us, 2500000",
        "67.108864, ms, 67108864000",
        "1, s, 1000000000000",
        "1e-3, us, 1000",
        "1_000, ns, 1000000",
        "0.1, us, 100000",
    })
    void timeToPicoseconds(String value, String unit, long ps) {
        assertEquals(ps, with("link.latency", value, unit).time(LinkParameters.LATENCY));
    }

    @Test
    void microSignSpellingsAreAccepted() {
        assertEquals(3_000_000L, with("link.latency", "3", "\"\u00b5s\"").time(LinkParameters.LATENCY));
        assertEquals(3_000_000L, with("link.latency", "3", "\"\u03bcs\"").time(LinkParameters.LATENCY));
    }

    @ParameterizedTest(name = "{0} {1} = {2} B/s")
    @CsvSource({
        "10, Gbps, 1250000000",
        "17, Gb/s, 2125000000",
        "54.54, Gbps, 6817500000",
        "1000, bps, 125",
        "100, Kbps, 12500",
        "5, Mbps, 625000",
        "31.5, GB/s, 31500000000",
        "1, KB/s, 1000",
        "1, MB/s, 1000000",
        "2, MiB/s, 2097152",
        "1, GiB/s, 1073741824",
        "528, B/s, 528",
    })
    void bandwidthToBytesPerSecond(String value, String unit, String bytesPerSecond) {
        Profile p = with("link.bandwidth", value, "\"" + unit + "\"");
        assertEquals(0, new BigDecimal(bytesPerSecond).compareTo(p.bandwidth(LinkParameters.BANDWIDTH).bytesPerSecond()));
    }

    @Test
    void bandwidthGivesExactPicosecondsPerByteAndRoundedUpTransferTimes() {
        Profile p = with("link.bandwidth", "10", "Gbps");
        assertEquals(0, new BigDecimal(800).compareTo(p.psPerByte(LinkParameters.BANDWIDTH)));
        assertEquals(1_250_000_000L, p.bytesPerSecond(LinkParameters.BANDWIDTH));
        assertEquals(256 * 800L, p.bandwidth(LinkParameters.BANDWIDTH).transferTimePs(256));
        Bandwidth b17 = with("link.bandwidth", "17", "Gbps").bandwidth(LinkParameters.BANDWIDTH);
        assertEquals(471L, b17.transferTimePs(1));               // 470.588... rounds up
        assertEquals(7_710_118L, b17.transferTimePs(16_384));     // 16384 * 8 / 17e9 s = 7710117.6 ps
    }

    @ParameterizedTest(name = "{0} {1} = {2} B")
    @CsvSource({
        "4, KiB, 4096",
        "16, KiB, 16384",
        "1.5, KiB, 1536",
        "4, KB, 4000",
        "400, MiB, 419430400",
        "1, MB, 1000000",
        "2047, MiB, 2146435072",
        "16, GiB, 17179869184",
        "1, GB, 1000000000",
        "256, B, 256",
    })
    void sizeToBytes(String value, String unit, long bytes) {
        assertEquals(bytes, with("firehose.m", value, unit).size(org.pagefabric.reg.firehose.FirehoseParameters.M));
    }

    @Test
    void frequencyCountProbabilityRatioFlagAndChoice() {
        assertEquals(2_330_000_000L, with("cpu.frequency", "2.33", "GHz").frequencyHz(CpuParameters.FREQUENCY));
        assertEquals(866_000_000L, with("cpu.frequency", "866", "MHz").frequencyHz(CpuParameters.FREQUENCY));
        assertEquals(128L, with("iommu.iotlb.l1.entries", "128", null).count(IommuParameters.IOTLB_L1_ENTRIES));
        assertEquals(0.05, with("link.loss", "5", "\"%\"").probability(LinkParameters.LOSS));
        assertEquals(0.25, with("link.loss", "0.25", null).probability(LinkParameters.LOSS));
        assertEquals(0.75, with("os.pinnable_fraction", "75", "\"%\"").ratio(OsParameters.PINNABLE_FRACTION));
        assertEquals(true, with("transport.selective_retransmission", "true", null)
                .flag(TransportParameters.SELECTIVE_RETRANSMISSION));
        assertEquals("random", with("iommu.iotlb.eviction", "random", null).choice(IommuParameters.IOTLB_EVICTION));
    }

    @Test
    void readingWithTheWrongDimensionIsAProgrammingError() {
        Profile p = ProfileRegistry.load("default");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> p.time(MemoryParameters.PAGE_SIZE));
        assertEquals("parameter memory.page_size is a size, not a time", e.getMessage());
    }

    @Test
    void resolvedSettingKeepsTheValueAsWrittenItsUnitAndSource() {
        Profile p = ProfileRegistry.load("part-forth");
        ResolvedSetting s = p.setting(LinkParameters.SWITCH_HOP_LATENCY);
        assertEquals("150 ns", s.written());
        assertEquals("ns", p.unit(LinkParameters.SWITCH_HOP_LATENCY));
        assertEquals(150_000L, p.time(LinkParameters.SWITCH_HOP_LATENCY));
        assertEquals(SourceCitation.Kind.SEED, s.citation().kind());
        assertEquals("000", s.citation().seed());
        assertEquals("§V", s.citation().location());
        assertEquals("part-forth", s.profile());
    }
}
