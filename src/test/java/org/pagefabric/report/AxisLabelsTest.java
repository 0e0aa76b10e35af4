package org.pagefabric.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class AxisLabelsTest {
    @Test
    void titlesCarryTheUnitFromTheColumnName() {
        assertEquals("latency (µs)", AxisLabels.title("latency_us"));
        assertEquals("bandwidth (MB/s)", AxisLabels.title("bandwidth_MBps"));
        assertEquals("message size (bytes)", AxisLabels.title("size_B"));
        assertEquals("pinned (MiB)", AxisLabels.title("pinned_MiB"));
        assertEquals("fault frequency (%)", AxisLabels.title("fault_frequency_pct"));
        assertEquals("faults (/s)", AxisLabels.title("faults_per_s"));
        assertEquals("iterations", AxisLabels.title("iterations"));
    }

    @Test
    void byteSizesReadLikeTheSeedsFigures() {
        assertEquals("8", AxisLabels.bytes(8));
        assertEquals("64", AxisLabels.bytes(64));
        assertEquals("1K", AxisLabels.bytes(1024));
        assertEquals("64K", AxisLabels.bytes(65536));
        assertEquals("1M", AxisLabels.bytes(1 << 20));
        assertEquals("4M", AxisLabels.bytes(4 << 20));
        assertEquals("1.5K", AxisLabels.bytes(1536));
        assertEquals("1G", AxisLabels.bytes(1 << 30));
    }

    @Test
    void numbersAreShortButKeepTheirMagnitude() {
        assertEquals("12300", AxisLabels.number(12345, 3));
        assertEquals("0.00123", AxisLabels.number(0.0012345, 3));
        assertEquals("4", AxisLabels.cell(4.0));
        assertEquals("4.33333", AxisLabels.cell(13.0 / 3));
        assertEquals("true", AxisLabels.cell(true));
    }

    @Test
    void aProfileDurationReadsInItsUnitNotInPicoseconds() {
        assertEquals("100 ns", AxisLabels.cell("link.latency_ps", 100_000L));
        assertEquals("1.5 us", AxisLabels.cell("cpu.interrupt_ps", 1_500_000.0));
        assertEquals("6 ms", AxisLabels.cell("os.unpin.base_ps", 6_000_000_000L));
        assertEquals("link.latency", AxisLabels.header("link.latency_ps"));
        assertEquals("latency_us", AxisLabels.header("latency_us"));
        assertEquals("4.778", AxisLabels.cell("latency_us", 4.778));
    }
}
