package org.pagefabric.report;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pagefabric.experiment.VerdictTally;

/**
 * The index in a real headless browser: the total of published numbers heads the page, and each
 * experiment's within / outside / not comparable / withheld counts are drawn in the colours the
 * reports give those verdicts. The same page without verdicts has none of those colours.
 */
class IndexRenderTest {
    private static final int W = 1200;
    private static final int H = 900;
    /** The verdict colours of Html.CSS, as the reports' comparison tables draw them. */
    private static final Color WITHIN = new Color(0xd8f0dc);
    private static final Color OUTSIDE = new Color(0xfbd5d5);
    private static final Color NOT_COMPARABLE = new Color(0xeeeeee);
    private static final Color WITHHELD = new Color(0xeef2fb);

    @TempDir
    Path dir;

    private static List<IndexEntry> entries(boolean withVerdicts) {
        return List.of(
                new IndexEntry("part.fig7", "PART Fig. 7", "seed 000, Fig. 7", RunStatus.COMPLETE,
                        "part.fig7/report.html", "20 rows, all verified",
                        withVerdicts ? new VerdictTally(5, 5, 0, 5, 0) : null),
                new IndexEntry("omx.fig6", "Open-MX Fig. 6", "seed 003, Fig. 6", RunStatus.COMPLETE,
                        "omx.fig6/report.html", "40 rows, all verified",
                        withVerdicts ? new VerdictTally(1, 2, 4, 0, 0) : null),
                new IndexEntry("x.limits", "Limits", "", RunStatus.COMPLETE, "x.limits/report.html",
                        "1 of 8 rows failed as the spec expects (RLIMIT_MEMLOCK: 1)", null));
    }

    private Path page(String name, boolean withVerdicts) throws Exception {
        Path file = dir.resolve(name).resolve(IndexPage.FILE_NAME);
        Files.createDirectories(file.getParent());
        Files.writeString(file, IndexPage.render(entries(withVerdicts)));
        return file;
    }

    @Test
    void theTotalAndEachExperimentsVerdictsAreDrawnInTheReportsColours() throws Exception {
        Chromium chromium = Chromium.find(dir);
        Path with = page("with", true);
        Path without = page("without", false);
        BufferedImage shot = ImageIO.read(chromium.screenshot(with, "with", W, H).toFile());
        BufferedImage plain = ImageIO.read(chromium.screenshot(without, "without", W, H).toFile());
        for (Color c : List.of(WITHIN, OUTSIDE, NOT_COMPARABLE, WITHHELD)) {
            int on = count(shot, c);
            int off = count(plain, c);
            System.out.printf("verdict colour %06x: %d pixels with verdicts, %d without%n", c.getRGB() & 0xFFFFFF, on, off);
            // the status badges share the green of "within": the verdicts must add to what is there
            assertTrue(on - off >= 200, "colour " + Integer.toHexString(c.getRGB()) + ": " + on + " with, "
                    + off + " without");
        }
        String dom = chromium.dumpDom(with);
        int total = dom.indexOf("id=\"fidelity\"");
        int table = dom.indexOf("<table");
        assertTrue(total > 0 && total < table, "the total heads the page, above the table");
        String head = dom.substring(total, table);
        assertTrue(head.contains("6 within tolerance") && head.contains("1 outside") && head.contains("5 not comparable")
                && head.contains("4 withheld"), head);
        assertTrue(head.contains("7 of 12 published numbers comparable (58 %)"), head);
        assertTrue(dom.contains("no published number"), "an experiment without references says so");
    }

    /** Pixels within a small distance of the colour. */
    private static int count(BufferedImage image, Color c) {
        return RenderedPage.pixelsNear(image, c, 3);
    }
}
