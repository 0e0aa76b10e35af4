package org.pagefabric.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

class HtmlReportTest {
    static final PlotSpec LATENCY = new PlotSpec("size_B", "latency_us", "policy", true, false, "Latency of RDMA");

    @TempDir
    Path dir;

    private static NodeList xpath(Document doc, String expression) throws Exception {
        return (NodeList) XPathFactory.newInstance().newXPath().evaluate(expression, doc, XPathConstants.NODESET);
    }

    @Test
    void rowsThatFailedVerificationGiveARedBannerFirstAndAreMarkedAndTheFigureStillDraws() throws Exception {
        List<Map<String, Object>> rows = SampleRows.latency(1);
        for (Map<String, Object> r : rows) {
            if (r.get("policy").equals("part") && (Long) r.get("size_B") >= 32768) {
                r.put("verified", false);
                r.put("latency_us", null);
                r.put("bandwidth_MBps", null);
                r.put("reason", "2 of 20 transfers delivered wrong bytes");
            }
        }
        String html = HtmlReport.render(SampleRows.meta(true, List.of()), rows, List.of(LATENCY), List.of(), false);
        Document doc = SvgLines.parse(html);
        String banner = xpath(doc, "//header/*[1]").item(0).getTextContent();
        assertTrue(banner.startsWith("NOT VERIFIED: 4 of 24 rows failed the end-to-end data check (part at size_B=32768: "
                + "2 of 20 transfers delivered wrong bytes"), banner);
        assertEquals("not-verified", xpath(doc, "//header/*[1]/@class").item(0).getTextContent());
        assertEquals(4, xpath(doc, "//table[@class='rows']//tr[@class='not-verified-row']").getLength());
        assertEquals(1, xpath(doc, "//figure/svg").getLength(), "blank figures are left out of the plot, not fatal");
        String verified = HtmlReport.render(SampleRows.meta(true, List.of()), SampleRows.latency(1), List.of(LATENCY),
                List.of(), false);
        assertFalse(verified.contains("NOT VERIFIED"));
    }

    @Test
    void reportIsWellFormedSelfContainedAndHoldsPlotComparisonRowsAndManifest() throws Exception {
        List<Map<String, Object>> rows = SampleRows.latency(2);
        Path file = HtmlReport.write(dir, SampleRows.meta(true, List.of()), rows, List.of(LATENCY),
                SampleRows.comparison());
        assertEquals(dir.resolve("report.html"), file);
        String html = Files.readString(file);
        Document doc = SvgLines.parse(html);

        assertSelfContained(html);
        assertEquals("Latency of RDMA writes without page faults", xpath(doc, "//h1").item(0).getTextContent());
        String intro = xpath(doc, "//p[@class='reproduces']").item(0).getTextContent();
        assertTrue(intro.contains("seed 000, Fig. 7") && intro.contains("complete"), intro);

        assertEquals(1, xpath(doc, "//figure/svg").getLength(), "the plot is inline SVG in a figure");
        assertTrue(xpath(doc, "//figure/svg//line").getLength() > 20, "the inline SVG holds the drawn lines");
        assertTrue(xpath(doc, "//figcaption").item(0).getTextContent().contains("standard deviation"));

        assertEquals(rows.size(), xpath(doc, "//table[@class='rows']/tbody/tr").getLength());
        assertEquals(10, xpath(doc, "//table[@class='rows']/thead/tr/th").getLength());

        assertEquals(List.of("series", "x", "metric", "paper", "ours", "ratio"),
                texts(xpath(doc, "//table[@class='comparison']/thead/tr/th")));
        assertEquals(List.of("touch-nopres", "4194304", "latency_us", "[withheld]", "160", "\u2014"),
                texts(xpath(doc, "//table[@class='comparison']/tbody/tr[3]/td")));
        assertEquals(1, xpath(doc, "//table[@class='comparison']//span[@class='withheld']").getLength());
        assertEquals("1.05", xpath(doc, "//table[@class='comparison']/tbody/tr[1]/td[6]").item(0).getTextContent());

        List<String> manifest = texts(xpath(doc, "//table[@class='manifest']//th"));
        assertTrue(manifest.containsAll(List.of("seed", "version", "commit", "jvm", "complete")), manifest.toString());
    }

    @Test
    void statusSaysCompleteStoppedEarlyOrUnmetPrerequisites() {
        List<Map<String, Object>> rows = SampleRows.latency(1);
        String complete = HtmlReport.render(SampleRows.meta(true, List.of()), rows, List.of(), List.of(), false);
        String stopped = HtmlReport.render(SampleRows.meta(false, List.of()), rows, List.of(), List.of(), false);
        String unmet = HtmlReport.render(SampleRows.meta(true, List.of("policy part (issue 9)")), List.of(),
                List.of(LATENCY), List.of(), false);
        assertTrue(complete.contains(">complete</span>"));
        assertTrue(stopped.contains(">stopped early</span>") && stopped.contains("stopped before the whole"));
        assertTrue(unmet.contains(">unmet prerequisites</span>") && unmet.contains("<li>policy part (issue 9)</li>"));
        assertTrue(unmet.contains("No rows to plot latency_us"), "a report without rows says so instead of a figure");
    }

    @Test
    void longResultsShowTheFirstRowsAndLinkTheCsv() throws Exception {
        List<Map<String, Object>> rows = new ArrayList<>();
        while (rows.size() <= HtmlReport.MAX_ROWS) {
            rows.addAll(SampleRows.latency(3));
        }
        String without = HtmlReport.render(SampleRows.meta(true, List.of()), rows, List.of(), List.of(), false);
        assertTrue(without.contains("The first " + HtmlReport.MAX_ROWS + " of " + rows.size() + " rows"));
        assertFalse(without.contains("href=\"rows.csv\""), "no link to a file that is not there");

        Files.writeString(dir.resolve("rows.csv"), "policy\n");
        String html = Files.readString(HtmlReport.write(dir, SampleRows.meta(true, List.of()), rows, List.of(), List.of()));
        assertTrue(html.contains("<a href=\"rows.csv\">rows.csv</a>"));
        assertEquals(HtmlReport.MAX_ROWS, xpath(SvgLines.parse(html), "//table[@class='rows']/tbody/tr").getLength());
    }

    @Test
    void twoFiguresKeepTheirIdsApartAndOutputIsDeterministic() throws Exception {
        List<Map<String, Object>> rows = SampleRows.latency(2);
        List<PlotSpec> plots = List.of(LATENCY, new PlotSpec("size_B", "bandwidth_MBps", "policy", true, false, "Bandwidth"));
        String html = HtmlReport.render(SampleRows.meta(true, List.of()), rows, plots, SampleRows.comparison(), false);
        assertEquals(html, HtmlReport.render(SampleRows.meta(true, List.of()), rows, plots, SampleRows.comparison(), false));
        Document doc = SvgLines.parse(html);
        assertEquals(2, xpath(doc, "//figure/svg").getLength());
        Set<String> ids = new HashSet<>();
        Matcher m = Pattern.compile(" id=\"([^\"]+)\"").matcher(html);
        while (m.find()) {
            assertTrue(ids.add(m.group(1)), "duplicate id " + m.group(1));
        }
        Matcher ref = Pattern.compile("url\\(#([^)]+)\\)").matcher(html);
        while (ref.find()) {
            assertTrue(ids.contains(ref.group(1)), "clip-path points at a missing id " + ref.group(1));
        }
    }

    @Test
    void aPlotThatCannotBeDrawnLeavesTheRestOfTheReport() throws Exception {
        String html = HtmlReport.render(SampleRows.meta(true, List.of()), SampleRows.latency(1),
                List.of(PlotSpec.of("size_B", "pinned_MiB", "policy")), List.of(), false);
        assertTrue(html.contains("Figure 1 could not be drawn: plot y=pinned_MiB: no row has this column"));
        assertEquals(24, xpath(SvgLines.parse(html), "//table[@class='rows']/tbody/tr").getLength());
    }

    /** No URL with a scheme, no script, no external stylesheet or image: the page opens offline as it is. */
    static void assertSelfContained(String html) {
        assertFalse(html.contains("http://"), "http URL in the page");
        assertFalse(html.contains("https://"), "https URL in the page");
        assertFalse(html.contains("<script"), "script in the page");
        assertFalse(html.contains("<link"), "external resource in the page");
        assertFalse(html.contains(" src="), "external source in the page");
        assertFalse(html.contains("<!DOCTYPE svg"), "SVG doctype inside HTML");
    }

    private static List<String> texts(NodeList nodes) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add(nodes.item(i).getTextContent());
        }
        return out;
    }
}
