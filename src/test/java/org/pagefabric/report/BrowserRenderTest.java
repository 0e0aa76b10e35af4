package org.pagefabric.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens a report in a real headless browser and checks that the figure and the results table are
 * actually rendered, not merely present in the file.
 *
 * <p>The screenshot of the full report is compared with screenshots of the same page with the figures
 * section, respectively the results section, cut out: the series colours must appear only when the figure
 * is there, and the table's row stripes and a large part of the picture must change when the table goes.
 * If the report lost its plot or its table, the cut would change nothing and the test fails.
 */
class BrowserRenderTest {
    private static final int W = 1200;
    private static final int H = 1600;
    /** CSS colours of the table stripes and header (Html.CSS), used to find the rendered tables. */
    private static final Color STRIPE = new Color(0xf2f6fb);
    private static final Color HEADER = new Color(0xdbe6f4);

    @TempDir
    Path dir;

    @Test
    void browserRendersThePlotAndTheTable() throws Exception {
        Chromium chromium = Chromium.find(dir);
        List<Map<String, Object>> rows = SampleRows.latency(1);
        Path full = HtmlReport.write(dir.resolve("full"), SampleRows.meta(true, List.of()), rows,
                List.of(HtmlReportTest.LATENCY), SampleRows.comparison());
        String html = Files.readString(full);
        Path noPlot = variant(html, "figures", "no-plot");
        Path noTable = variant(html, "rows", "no-table");

        BufferedImage shot = ImageIO.read(chromium.screenshot(full, "full", W, H).toFile());
        BufferedImage shotNoPlot = ImageIO.read(chromium.screenshot(noPlot, "no-plot", W, H).toFile());
        BufferedImage shotNoTable = ImageIO.read(chromium.screenshot(noTable, "no-table", W, H).toFile());
        assertEquals(W, shot.getWidth());
        assertEquals(H, shot.getHeight());
        assertNotBlank(shot);

        // The figure: every series colour is on screen with the plot, and none of them without it.
        for (int i = 0; i < SampleRows.POLICIES.size(); i++) {
            Color c = Plots.seriesColor(i);
            int with = count(shot, c);
            int without = count(shotNoPlot, c);
            System.out.printf("series %d: %d pixels with the plot, %d without%n", i, with, without);
            assertTrue(with >= 100, "series " + SampleRows.POLICIES.get(i) + " drawn in " + with + " pixels");
            assertTrue(without <= with / 20, "series colour found without the plot: " + without);
        }
        double plotChange = changed(shot, shotNoPlot);
        System.out.printf("plot cut changes %.3f of the pixels%n", plotChange);
        assertTrue(plotChange > 0.03, "cutting the figure must change the page, changed " + plotChange);

        // The table: the header and row stripes of the results table are drawn (the comparison table
        // above it has only 3 rows, so most stripe pixels belong to the results table).
        int stripes = count(shot, STRIPE);
        int stripesNoTable = count(shotNoTable, STRIPE);
        assertTrue(stripes >= 4 * Math.max(1, stripesNoTable), "results table stripes: " + stripes
                + " pixels with the table, " + stripesNoTable + " without");
        assertTrue(count(shot, HEADER) > count(shotNoTable, HEADER), "results table header drawn");
        double tableChange = changed(shot, shotNoTable);
        System.out.printf("table cut changes %.3f of the pixels; stripes %d with, %d without%n", tableChange,
                stripes, stripesNoTable);
        assertTrue(tableChange > 0.03, "cutting the table must change the page, changed " + tableChange);

        // The DOM Chromium built: the inline SVG with its lines, the table with every row.
        String dom = chromium.dumpDom(full);
        assertTrue(dom.contains("<svg"), "no svg in the browser's DOM");
        assertTrue(count(dom, "<line ") > 20, "the browser's SVG has no drawn lines");
        String table = section(dom, "rows");
        assertEquals(rows.size() + 1, count(table, "<tr>"), "header plus one row per result");
    }

    private Path variant(String html, String section, String name) throws Exception {
        String cut = html.replace(section(html, section), "");
        assertTrue(cut.length() < html.length(), "the report has no section " + section);
        Path file = dir.resolve(name).resolve("report.html");
        Files.createDirectories(file.getParent());
        Files.writeString(file, cut);
        return file;
    }

    private static String section(String html, String id) {
        Matcher m = Pattern.compile("<section id=\"" + id + "\">.*?</section>", Pattern.DOTALL).matcher(html);
        return m.find() ? m.group() : "";
    }

    private static void assertNotBlank(BufferedImage image) {
        Set<Integer> colours = new HashSet<>();
        int nonWhite = 0;
        for (int y = 0; y < image.getHeight(); y++) {
            for (int x = 0; x < image.getWidth(); x++) {
                int rgb = image.getRGB(x, y) & 0xFFFFFF;
                colours.add(rgb);
                nonWhite += rgb == 0xFFFFFF ? 0 : 1;
            }
        }
        assertTrue(colours.size() > 50, "screenshot has only " + colours.size() + " colours");
        assertTrue(nonWhite > image.getWidth() * image.getHeight() / 50, "screenshot is almost blank");
    }

    /** Pixels within a small distance of the colour (anti-aliasing shifts edges, not fills). */
    private static int count(BufferedImage image, Color c) {
        return RenderedPage.pixelsNear(image, c, 6);
    }

    /** Fraction of pixels that differ between two screenshots of the same size. */
    private static double changed(BufferedImage a, BufferedImage b) {
        long n = 0;
        for (int y = 0; y < a.getHeight(); y++) {
            for (int x = 0; x < a.getWidth(); x++) {
                n += a.getRGB(x, y) == b.getRGB(x, y) ? 0 : 1;
            }
        }
        return n / (double) (a.getWidth() * a.getHeight());
    }

    private static int count(String text, String needle) {
        return RenderedPage.occurrences(text, needle);
    }
}
