package org.pagefabric.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A comparison's report in a real headless browser: the decision (recommendation, trade-off
 * scatter of twenty policies, ranking table) is drawn, and every policy's colour is on screen.
 */
class CompareReportRenderTest {
    private static final int POLICIES = 20;

    @TempDir
    Path dir;

    @Test
    void twentySeriesRepeatNeitherColourNorMarker() {
        Set<Integer> colours = new HashSet<>();
        Set<Object> markers = new HashSet<>();
        for (int i = 0; i < POLICIES; i++) {
            colours.add(Plots.seriesColor(i).getRGB());
            markers.add(Plots.seriesMarker(i));
        }
        assertEquals(POLICIES, colours.size());
        assertEquals(POLICIES, markers.size());
        assertTrue(Plots.DISTINCT_SERIES >= POLICIES);
    }

    @Test
    void browserRendersTheRankingAndTheTradeOff() throws Exception {
        Chromium chromium = Chromium.find(dir);
        List<Map<String, Object>> ranking = new ArrayList<>();
        for (int i = 0; i < POLICIES; i++) {
            Map<String, Object> r = new LinkedHashMap<>();
            r.put("size_B", 65536L);
            r.put("rank", i + 1);
            r.put("policy", "policy-" + i);
            r.put("latency_us", 4.0 + i * 0.7);
            r.put("pinned_MiB", (double) ((i * 7) % 11));
            r.put("verified", true);
            r.put("pareto", i == 0);
            ranking.add(r);
        }
        PolicyDecision decision = new PolicyDecision("size_B", "latency_us", "pinned_MiB", ranking,
                Map.of(65536L, "policy-0: the best latency (4 us) with 0 MiB pinned"),
                List.of("failed: openmx-overlap: rank 1: Open-MX connection failed: RETRY_EXCEEDED"));
        Path full = HtmlReport.write(dir.resolve("full"), SampleRows.meta(true, List.of()), ranking, List.of(),
                List.of(), List.of(), decision);
        String html = Files.readString(full);
        HtmlReportTest.assertSelfContained(html);
        String cut = html.replace(section(html, "decision"), "");
        Path without = dir.resolve("cut").resolve("report.html");
        Files.createDirectories(without.getParent());
        Files.writeString(without, cut);

        BufferedImage shot = ImageIO.read(chromium.screenshot(full, "full", 1200, 1800).toFile());
        BufferedImage shotWithout = ImageIO.read(chromium.screenshot(without, "cut", 1200, 1800).toFile());
        for (int i = 0; i < POLICIES; i++) {
            Color c = Plots.seriesColor(i);
            int with = count(shot, c);
            assertTrue(with >= 20, "policy-" + i + " drawn in " + with + " pixels");
            assertTrue(count(shotWithout, c) <= with / 5, "policy-" + i + "'s colour without the scatter");
        }
        String dom = chromium.dumpDom(full);
        String decisionDom = section(dom, "decision");
        assertTrue(decisionDom.contains("<svg"), "the trade-off scatter is in the browser's DOM");
        assertEquals(POLICIES + 1, count(decisionDom, "<tr>"), "header plus one ranking row per policy");
        assertTrue(decisionDom.contains("size_B 65536") && decisionDom.contains("policy-0: the best latency"), decisionDom);
        assertTrue(decisionDom.contains("RETRY_EXCEEDED"), "policies not ranked are listed with their reason");
    }

    private static String section(String html, String id) {
        Matcher m = Pattern.compile("<section id=\"" + id + "\">.*?</section>", Pattern.DOTALL).matcher(html);
        return m.find() ? m.group() : "";
    }

    private static int count(String s, String what) {
        return RenderedPage.occurrences(s, what);
    }

    private static int count(BufferedImage image, Color c) {
        return RenderedPage.pixelsNear(image, c, 6);
    }
}
