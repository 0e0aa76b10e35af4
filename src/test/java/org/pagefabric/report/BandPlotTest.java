package org.pagefabric.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The band of ours from a sensitivity study drawn on the plot: a bar of its own, kept out of the legend. */
class BandPlotTest {
    private static final PlotSpec LATENCY = new PlotSpec("size_B", "latency_us", "policy", true, true, "Latency");

    @Test
    void aBandAddsABarButNoLegendEntry() {
        List<Map<String, Object>> rows = SampleRows.latency(1);
        String plain = Plots.svg(LATENCY, rows, List.of(), Plots.WIDTH, Plots.HEIGHT);
        String banded = Plots.svg(LATENCY, rows, List.of(), List.of(new BandSegment("pin", 4096, 1.0, 9.0)),
                Plots.WIDTH, Plots.HEIGHT);
        assertNotEquals(plain, banded, "the band is drawn");
        assertEquals(count(plain, ">pin<"), count(banded, ">pin<"), "no legend entry for the band");
        String unknown = Plots.svg(LATENCY, rows, List.of(), List.of(new BandSegment("no-such-series", 4096, 1, 9)),
                Plots.WIDTH, Plots.HEIGHT);
        assertEquals(plain, unknown, "a band of a series the plot lacks is left out");
    }

    private static int count(String s, String part) {
        int n = 0;
        for (int at = s.indexOf(part); at >= 0; at = s.indexOf(part, at + 1)) {
            n++;
        }
        return n;
    }
}
