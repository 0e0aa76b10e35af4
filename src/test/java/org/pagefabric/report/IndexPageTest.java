package org.pagefabric.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.NodeList;

class IndexPageTest {
    @TempDir
    Path root;

    @Test
    void indexLinksEachReportWithStatusAndOneLine() throws Exception {
        ReportMetadata done = SampleRows.meta(true, List.of());
        ReportMetadata blocked = new ReportMetadata("aa-dht", "DHT inserts with Active Access", "002", "Figure 7a",
                List.of("policy aa"), false, Map.of());
        ReportMetadata partial = new ReportMetadata("firehose-bw", "Firehose bandwidth", "004", "Figure 4",
                List.of(), false, Map.of());
        Path file = IndexPage.write(root, List.of(
                IndexEntry.of(done, "part-latency/report.html", "pin adds 6 µs at 8 B"),
                IndexEntry.of(blocked, "aa-dht/report.html", "needs policy aa"),
                IndexEntry.of(partial, "firehose-bw/report.html", "stopped after 3 of 9 sizes")));
        assertEquals(root.resolve("index.html"), file);
        String html = Files.readString(file);
        HtmlReportTest.assertSelfContained(html);
        Document doc = SvgLines.parse(html);
        NodeList links = (NodeList) XPathFactory.newInstance().newXPath().evaluate("//table/tbody/tr/td[1]/a/@href",
                doc, XPathConstants.NODESET);
        assertEquals(3, links.getLength());
        assertEquals("part-latency/report.html", links.item(0).getTextContent());
        assertTrue(html.contains("3 experiments, 1 complete, 1 stopped early, 1 unmet prerequisites."));
        assertTrue(html.contains("seed 002, Figure 7a") && html.contains("needs policy aa"));
        assertTrue(html.contains(">unmet prerequisites</span>") && html.contains(">stopped early</span>"));
    }

    @Test
    void indexAccumulatesEveryExperimentUnderTheRoot() throws Exception {
        ReportMetadata a = new ReportMetadata("run.latency", "latency", null, null, List.of(), true, Map.of());
        ReportMetadata b = new ReportMetadata("compare-latency", "latency under every policy", null, null, List.of(),
                true, Map.of());
        for (String dir : new String[] {"run.latency", "compare-latency"}) {
            Files.createDirectories(root.resolve(dir));
            Files.writeString(root.resolve(dir).resolve("report.html"), "<html/>");
        }
        IndexPage.write(root, List.of(IndexEntry.of(a, "run.latency/report.html", "first run")));
        IndexPage.write(root, List.of(IndexEntry.of(b, "compare-latency/report.html", "a comparison")));
        String html = IndexPage.write(root, List.of(IndexEntry.of(a, "run.latency/report.html", "second run")))
                .toFile().exists() ? Files.readString(root.resolve("index.html")) : "";
        assertTrue(html.contains("2 experiments"), html);
        assertTrue(html.contains("second run") && !html.contains("first run"), "a rerun replaces its entry: " + html);
        assertTrue(html.indexOf("run.latency") < html.indexOf("compare-latency"), "in place, not moved to the end");
        Files.delete(root.resolve("compare-latency").resolve("report.html"));
        String after = Files.readString(IndexPage.write(root, List.of()));
        assertTrue(after.contains("1 experiment,") && !after.contains("compare-latency"), "a deleted report drops out");
    }

    @Test
    void linksMustStayInsideTheResultsTree() {
        ReportMetadata meta = SampleRows.meta(true, List.of());
        assertThrows(IllegalArgumentException.class, () -> IndexEntry.of(meta, "https://example.org/r.html", ""));
        assertThrows(IllegalArgumentException.class, () -> IndexEntry.of(meta, "/abs/report.html", ""));
    }

    @Test
    void emptyIndexSaysSo() {
        assertTrue(IndexPage.render(List.of()).contains("No experiments have results yet."));
    }
}
