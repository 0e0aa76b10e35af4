package org.pagefabric.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pagefabric.cli.Main;
import picocli.CommandLine;

/**
 * The timeline of a real run's report in a headless browser: the page loads without a word on the
 * console, the browser's DOM has the drawing with a lane per rank, NIC and kernel, and its spans are
 * on screen in their kinds' colours.
 */
class TimelineRenderTest {
    /** The colours of registration and transfer spans (TimelineKind). */
    private static final Color REGISTRATION = new Color(0xe69f00);
    private static final Color TRANSFER = new Color(0x0072b2);

    @TempDir
    Path dir;

    @Test
    void theTimelineOfARunsReportRendersWithItsLanesAndNoConsoleMessage() throws Exception {
        Chromium chromium = Chromium.find(dir);
        CommandLine cl = Main.commandLine();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(new StringWriter()));
        cl.setErr(new PrintWriter(err));
        Path out = dir.resolve("out");
        int code = cl.execute("run", "latency", "--policy", "cache-hooks", "--sizes", "4K", "--iterations", "10",
                "--out", out.toString());
        assertEquals(0, code, err.toString());
        Path report = out.resolve("run.latency").resolve(HtmlReport.FILE_NAME);
        String html = Files.readString(report);
        HtmlReportTest.assertSelfContained(html);

        List<String> console = chromium.console(report);
        assertEquals(List.of(), console, "the report logs nothing to the console");
        // the check itself hears the console: the same page with a script that logs an error
        Path noisy = dir.resolve("noisy").resolve(HtmlReport.FILE_NAME);
        Files.createDirectories(noisy.getParent());
        Files.writeString(noisy, html.replace("</body>", "<script>console.error('timeline check')</script></body>"));
        assertTrue(chromium.console(noisy).stream().anyMatch(l -> l.contains("timeline check")),
                "a console error is seen");

        String timeline = section(chromium.dumpDom(report), "timeline");
        assertTrue(timeline.contains("<svg"), "the browser's DOM has the drawing");
        // latency runs two ranks on two nodes: a lane per rank, NIC and kernel
        assertEquals(6, count(timeline, "class=\"lane\""));
        assertEquals(1, count(timeline, "class=\"counter\""));

        Path without = dir.resolve("without").resolve(HtmlReport.FILE_NAME);
        Files.createDirectories(without.getParent());
        Files.writeString(without, html.replace(section(html, "timeline"), ""));
        BufferedImage shot = ImageIO.read(chromium.screenshot(report, "with", 1200, 2600).toFile());
        BufferedImage shotWithout = ImageIO.read(chromium.screenshot(without, "without", 1200, 2600).toFile());
        for (Color c : List.of(REGISTRATION, TRANSFER)) {
            int on = count(shot, c);
            int off = count(shotWithout, c);
            System.out.printf("span colour %06x: %d pixels with the timeline, %d without%n", c.getRGB() & 0xFFFFFF, on,
                    off);
            assertTrue(on - off >= 300, "colour " + Integer.toHexString(c.getRGB()) + ": " + on + " with, " + off
                    + " without");
        }
        assertFalse(html.contains("timeline check"));
    }

    private static String section(String html, String id) {
        Matcher m = Pattern.compile("<section id=\"" + id + "\">.*?</section>", Pattern.DOTALL).matcher(html);
        assertTrue(m.find(), "no section " + id);
        return m.group();
    }

    private static int count(String text, String needle) {
        return RenderedPage.occurrences(text, needle);
    }

    /** Pixels within a small distance of the colour. */
    private static int count(BufferedImage image, Color c) {
        return RenderedPage.pixelsNear(image, c, 4);
    }
}
