package org.pagefabric.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.knowm.xchart.style.AxesChartStyler;

/**
 * What a reader must be able to read off a figure: labels above the highest value of a log axis,
 * two nearly equal series as two, a series orders of magnitude below the others off the zero
 * line, and categories that are not given a unit they do not have.
 */
class PlotReadabilityTest {
    private static Map<String, Object> row(String policy, Object x, double y) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("policy", policy);
        r.put("size_B", x);
        r.put("latency_us", y);
        return r;
    }

    private static List<Map<String, Object>> rows(String policy, double... ys) {
        List<Map<String, Object>> out = new ArrayList<>();
        long size = 8;
        for (double y : ys) {
            out.add(row(policy, size, y));
            size *= 8;
        }
        return out;
    }

    @Test
    void aLogAxisEndsAtTheDecadesAroundItsValues() {
        // part.fig7: transfer-only from 0.08 us, pin-mlock to about 15 us: decade labels 0.01 .. 10 only
        List<Map<String, Object>> rows = new ArrayList<>(rows("transfer-only", 0.08, 0.3, 1.2));
        rows.addAll(rows("pin-mlock", 2.0, 6.0, 15.3));
        PlotSpec spec = new PlotSpec("size_B", "latency_us", "policy", true, true, "fig");
        AxesChartStyler st = (AxesChartStyler) Plots.build(spec, rows, List.of(new PaperPoint("pin-mlock", 8, 40)))
                .chart().getStyler();
        assertEquals(100.0, st.getYAxisMax(), "a labelled decade above the highest value (15.3 us, the paper's 40)");
        assertEquals(0.01, st.getYAxisMin(), 1e-12, "a labelled decade below the lowest value");
    }

    @Test
    void valuesOrdersOfMagnitudeApartGetALogAxisTheCaptionStates() {
        // fh.fig5: rendezvous-unpin at 0.68 MB/s beside about 1000 MB/s on a linear axis is a line on zero
        List<Map<String, Object>> rows = new ArrayList<>(rows("firehose", 900, 1000, 1100));
        rows.addAll(rows("rendezvous-unpin", 0.5, 0.6, 0.68));
        PlotSpec linear = new PlotSpec("size_B", "latency_us", "policy", true, false, "fig");
        AxesChartStyler st = (AxesChartStyler) Plots.build(linear, rows, List.of()).chart().getStyler();
        assertTrue(st.isYAxisLogarithmic());
        assertTrue(Plots.caption(linear, rows).contains("on a log scale (its values span more than 3 orders of"
                + " magnitude)"), Plots.caption(linear, rows));
        List<Map<String, Object>> close = rows("firehose", 900, 1000, 1100);
        assertFalse(((AxesChartStyler) Plots.build(linear, close, List.of()).chart().getStyler()).isYAxisLogarithmic());
    }

    @Test
    void categoriesShowNoUnitTheirColumnNameSuggests() {
        // x.fork: os.fork.pinned_pages holds kernel behaviours, not a number of pages
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String kernel : new String[] {"early-copy", "shared-cow"}) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("policy", "pin-all");
            r.put("os.fork.pinned_pages", kernel);
            r.put("latency_us", 3.0);
            rows.add(r);
        }
        String caption = Plots.caption(new PlotSpec("os.fork.pinned_pages", "latency_us", "policy", false, false, "f"),
                rows);
        assertFalse(caption.contains("(pages)"), caption);
        assertTrue(caption.contains("against os.fork.pinned pages"), caption);
    }

    @Test
    void twoNearlyEqualSeriesBothShowTheirMarkers() throws Exception {
        // aa.fig7a: am and am-exp within a percent of each other at every x
        List<Map<String, Object>> both = new ArrayList<>(rows("am", 10, 20, 40, 80));
        both.addAll(rows("am-exp", 10.05, 20.1, 40.2, 80.4));
        PlotSpec spec = new PlotSpec("size_B", "latency_us", "policy", true, true, "fig");
        int hidden = pixels(Plots.png(spec, both, Plots.WIDTH, Plots.HEIGHT), 0);
        int alone = pixels(Plots.png(spec, rows("am", 10, 20, 40, 80), Plots.WIDTH, Plots.HEIGHT), 0);
        System.out.printf("first series: %d pixels alone, %d under a nearly equal second%n", alone, hidden);
        // equal-sized markers leave about 15 % of the first series' pixels (its legend entry, a few corners)
        assertTrue(hidden * 5 >= alone, "the first series keeps a visible rim: " + hidden + " of " + alone + " pixels");
        assertTrue(ScaledMarker.scaleOf(0) > ScaledMarker.scaleOf(1), "earlier series draw larger markers");
    }

    private static int pixels(byte[] png, int series) throws Exception {
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        int want = Plots.seriesColor(series).getRGB() & 0xFFFFFF;
        int n = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                n += (image.getRGB(x, y) & 0xFFFFFF) == want ? 1 : 0;
            }
        }
        return n;
    }
}
