package org.pagefabric.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

class PlotsTest {
    private static final PlotSpec LATENCY = new PlotSpec("size_B", "latency_us", "policy", true, true, "Latency");

    @Test
    void pngDecodesToTheRequestedSizeAndIsNotBlank() throws Exception {
        byte[] png = Plots.png(LATENCY, SampleRows.latency(1), 640, 400);
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        assertEquals(640, image.getWidth());
        assertEquals(400, image.getHeight());
        int seriesPixels = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                if ((image.getRGB(x, y) & 0xFFFFFF) == (Plots.seriesColor(0).getRGB() & 0xFFFFFF)) {
                    seriesPixels++;
                }
            }
        }
        assertTrue(seriesPixels > 100, "the first series' colour should be drawn, found " + seriesPixels + " pixels");
    }

    @Test
    void svgParsesWithOneLinePerPolicyAndDescribesTheAxes() throws Exception {
        String svg = Plots.svg(LATENCY, SampleRows.latency(1), Plots.WIDTH, Plots.HEIGHT);
        Document doc = SvgLines.parse(svg);
        assertEquals("svg", doc.getDocumentElement().getTagName());
        for (int i = 0; i < SampleRows.POLICIES.size(); i++) {
            List<double[]> line = SvgLines.polyline(doc, Plots.seriesColor(i));
            assertEquals(SampleRows.SIZES.length, line.size(),
                    SampleRows.POLICIES.get(i) + " should be one line through every size");
        }
        // No fourth series colour: one line per policy, not more.
        assertTrue(SvgLines.lines(doc, Plots.seriesColor(3)).isEmpty());
        String desc = doc.getElementsByTagName("desc").item(0).getTextContent();
        assertTrue(desc.contains("latency (µs)"), desc);
        assertTrue(desc.contains("message size (bytes)"), desc);
        assertTrue(desc.contains("pin, touch-nopres, part"), desc);
        assertEquals("Latency", doc.getElementsByTagName("title").item(0).getTextContent());
    }

    @Test
    void logAxesSpaceSizesAndLatenciesLogarithmically() throws Exception {
        List<Map<String, Object>> rows = SampleRows.latency(1);
        PlotData.Series pin = PlotData.of(LATENCY, rows).series().get(0);
        List<double[]> log = SvgLines.polyline(SvgLines.parse(Plots.svg(LATENCY, rows, 800, 500)), Plots.seriesColor(0));
        List<double[]> linear = SvgLines.polyline(
                SvgLines.parse(Plots.svg(LATENCY.withLog(false, false), rows, 800, 500)), Plots.seriesColor(0));
        // On the log x axis pixel steps are proportional to log(size ratio); on a linear axis to the size.
        long[] sizes = SampleRows.SIZES;
        double perOctave = (log.get(1)[0] - log.get(0)[0]) / Math.log(sizes[1] / (double) sizes[0]);
        for (int i = 1; i < log.size(); i++) {
            assertEquals(perOctave * Math.log(sizes[i] / (double) sizes[i - 1]), log.get(i)[0] - log.get(i - 1)[0],
                    1e-6 * perOctave);
        }
        assertTrue(linear.get(7)[0] - linear.get(6)[0] > 100 * (linear.get(1)[0] - linear.get(0)[0]));
        // y pixels are affine in log(mean) on the log y axis.
        double scale = (log.get(7)[1] - log.get(0)[1]) / Math.log(pin.points().get(7).mean() / pin.points().get(0).mean());
        for (int i = 1; i < log.size(); i++) {
            double expected = log.get(0)[1] + scale * Math.log(pin.points().get(i).mean() / pin.points().get(0).mean());
            assertEquals(expected, log.get(i)[1], 1e-6 * Math.abs(scale));
        }
    }

    @Test
    void repetitionsGiveMeansWithStandardDeviationErrorBars() throws Exception {
        List<Map<String, Object>> rows = SampleRows.latency(3);
        PlotData data = PlotData.of(LATENCY, rows);
        assertTrue(data.hasRepetitions());
        PlotData.Point p = data.series().get(0).points().get(3);
        double[] ys = rows.stream().filter(r -> r.get("policy").equals("pin") && r.get("size_B").equals(4096L))
                .mapToDouble(r -> (Double) r.get("latency_us")).toArray();
        double mean = (ys[0] + ys[1] + ys[2]) / 3;
        double sd = Math.sqrt(((ys[0] - mean) * (ys[0] - mean) + (ys[1] - mean) * (ys[1] - mean)
                + (ys[2] - mean) * (ys[2] - mean)) / 2);
        assertEquals(3, p.n());
        assertEquals(mean, p.mean(), 1e-12);
        assertEquals(sd, p.stddev(), 1e-12);
        assertEquals(ys[0], p.min());
        assertEquals(ys[2], p.max());

        Document with = SvgLines.parse(Plots.svg(LATENCY.withLog(true, false), rows, 800, 500));
        Document without = SvgLines.parse(Plots.svg(LATENCY.withLog(true, false), SampleRows.latency(1), 800, 500));
        for (int i = 0; i < SampleRows.POLICIES.size(); i++) {
            long bars = SvgLines.lines(with, Plots.seriesColor(i)).stream().filter(SvgLines.Segment::vertical).count();
            assertEquals(SampleRows.SIZES.length, bars, "one error bar per point of " + SampleRows.POLICIES.get(i));
            assertEquals(0, SvgLines.lines(without, Plots.seriesColor(i)).stream()
                    .filter(SvgLines.Segment::vertical).count(), "no error bars without repetitions");
        }
        assertTrue(Plots.caption(LATENCY, rows).contains("standard deviation"));
    }

    @Test
    void sameRowsGiveByteIdenticalSvgAndPng() {
        List<Map<String, Object>> rows = SampleRows.latency(2);
        assertEquals(Plots.svg(LATENCY, rows, 800, 500), Plots.svg(LATENCY, new ArrayList<>(rows), 800, 500));
        assertArrayEquals(Plots.png(LATENCY, rows, 800, 500), Plots.png(LATENCY, rows, 800, 500));
    }

    @Test
    void categoricalXGivesABarChart() throws Exception {
        PlotSpec spec = new PlotSpec("step", "time_us", "policy", false, false, "Breakdown");
        PlotData data = PlotData.of(spec, SampleRows.breakdown());
        assertTrue(!data.numericX());
        assertEquals(List.of("first packet", "SMMU interrupt", "tasklet", "ERR", "retransmission"), data.xValues());
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(Plots.png(spec, SampleRows.breakdown(), 600, 400)));
        assertEquals(600, image.getWidth());
        SvgLines.parse(Plots.svg(spec, SampleRows.breakdown(), 600, 400));
    }

    @Test
    void errorBarsOnALogAxisStayAboveZero() throws Exception {
        List<Map<String, Object>> rows = List.of(
                Map.of("policy", "pin", "size_B", 8, "latency_us", 1.0),
                Map.of("policy", "pin", "size_B", 8, "latency_us", 100.0),
                Map.of("policy", "pin", "size_B", 64, "latency_us", 5.0));
        String svg = Plots.svg(LATENCY, rows, 800, 500);
        SvgLines.parse(svg);
        assertTrue(svg.contains("shortened where they would reach zero"));
        assertTrue(!svg.contains("NaN") && !svg.contains("Infinity"));
    }

    @Test
    void aBarMissingFromOneSeriesIsLeftOutNotDrawnAsZero() {
        List<Map<String, Object>> rows = new ArrayList<>(SampleRows.breakdown());
        rows.add(Map.of("policy", "pin", "step", "tasklet", "time_us", 2.0));
        PlotSpec spec = PlotSpec.of("step", "time_us", "policy");
        assertTrue(Plots.png(spec, rows, 600, 400).length > 0);
        var e = assertThrows(IllegalArgumentException.class, () -> Plots.png(spec.withLog(false, true), rows, 600, 400));
        assertTrue(e.getMessage().contains("pin has no first packet"), e.getMessage());
    }

    @Test
    void rowsReadBackFromCsvAsStringsStillPlot() {
        List<Map<String, Object>> rows = List.of(
                Map.of("policy", "pin", "size_B", "8", "latency_us", "4.5"),
                Map.of("policy", "pin", "size_B", "64", "latency_us", "5.0"));
        PlotData data = PlotData.of(LATENCY, rows);
        assertTrue(data.numericX());
        assertEquals(5.0, data.series().get(0).points().get(1).mean());
    }

    @Test
    void errorsNameTheColumn() {
        List<Map<String, Object>> rows = SampleRows.latency(1);
        var missing = assertThrows(IllegalArgumentException.class,
                () -> Plots.svg(PlotSpec.of("size_B", "latency_ns", "policy"), rows, 800, 500));
        assertTrue(missing.getMessage().contains("latency_ns") && missing.getMessage().contains("latency_us"),
                missing.getMessage());
        var text = assertThrows(IllegalArgumentException.class, () -> PlotData.of(PlotSpec.of("size_B", "policy", null), rows));
        assertTrue(text.getMessage().contains("not a number"), text.getMessage());
        List<Map<String, Object>> zero = List.of(Map.of("size_B", 0, "latency_us", 1.0));
        var log = assertThrows(IllegalArgumentException.class,
                () -> Plots.svg(PlotSpec.of("size_B", "latency_us", null).withLog(true, false), zero, 800, 500));
        assertTrue(log.getMessage().contains("size_B > 0"), log.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new PlotSpec("", "latency_us", null, false, false, null));
    }

    @Test
    void paperValuesAreHollowMarkersInTheirSeriesColourAndAddNoLine() throws Exception {
        List<Map<String, Object>> rows = SampleRows.latency(1);
        List<PaperPoint> paper = List.of(new PaperPoint("pin", 8, 40), new PaperPoint("PART", 4096, 500),
                new PaperPoint("no-such-series", 64, 10));
        byte[] without = Plots.png(LATENCY, rows, 640, 400);
        byte[] with = Plots.png(LATENCY, rows, paper, 640, 400);
        assertTrue(!java.util.Arrays.equals(without, with), "the paper's values must change the figure");
        String svg = Plots.svg(LATENCY, rows, paper, Plots.WIDTH, Plots.HEIGHT);
        Document doc = SvgLines.parse(svg);
        // Still one line per policy through every size: the paper's points are markers, not a line.
        for (int i = 0; i < SampleRows.POLICIES.size(); i++) {
            assertEquals(SampleRows.SIZES.length, SvgLines.polyline(doc, Plots.seriesColor(i)).size());
        }
        // A value of a series the plot does not have is not drawn, and draws in no new colour.
        assertTrue(SvgLines.lines(doc, Plots.seriesColor(3)).isEmpty());
        assertEquals(Plots.svg(LATENCY, rows, paper, Plots.WIDTH, Plots.HEIGHT), svg, "deterministic");
    }
}
