package org.pagefabric.report.timeline;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathConstants;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;

/**
 * The report's drawing of a timeline: a lane per rank, NIC and kernel in node order, spans at their
 * extent in their kind's colour, spans below a pixel merged and counted, the pinned-memory line,
 * the axis in a unit that suits the span, and the cap said when reached.
 */
class TimelineSvgTest {
    /** One microsecond of simulated time over the drawing's columns. */
    private static final long SPAN_PS = 1_000_000;
    private static final int[] TWO_NODES = {0, 1};

    private static TimelineEvents sample() {
        TimelineEvents e = new TimelineEvents(1000);
        e.add(TimelineKind.REGISTRATION, Tracks.rank(0), 0, SPAN_PS / 2, 7);
        e.add(TimelineKind.TRANSFER, Tracks.nic(0), SPAN_PS / 2, SPAN_PS / 4, 4096);
        e.add(TimelineKind.PIN, Tracks.kernel(1), SPAN_PS / 10, SPAN_PS / 10, 2);
        e.add(TimelineKind.COMPUTE, Tracks.rank(1), 0, SPAN_PS / 2, 0);
        // 100 waits of 100 ps, one every nanosecond: each narrower than a pixel column (about 1.2 ns)
        for (int i = 0; i < 100; i++) {
            e.add(TimelineKind.WAIT, Tracks.rank(1), 600_000 + i * 1000L, 100, i);
        }
        e.add(TimelineKind.PINNED, Tracks.JOB, 0, 1 << 20, 0);
        e.add(TimelineKind.PINNED, Tracks.JOB, SPAN_PS / 2, 2 << 20, 0);
        e.add(TimelineKind.PINNED, Tracks.JOB, SPAN_PS, 1 << 20, 0);
        return e;
    }

    private static Document parse(String svg) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(new InputSource(new StringReader(svg)));
    }

    private static NodeList xpath(Document d, String expr) throws Exception {
        return (NodeList) XPathFactory.newInstance().newXPath().evaluate(expr, d, XPathConstants.NODESET);
    }

    private static List<String> laneNames(Document d) throws Exception {
        NodeList lanes = xpath(d, "/svg/g[@class='lane']");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < lanes.getLength(); i++) {
            out.add(((Element) lanes.item(i)).getAttribute("data-track"));
        }
        return out;
    }

    @Test
    void everyRankNicAndKernelHasALaneInNodeOrder() throws Exception {
        TimelineFigure f = new TimelineSvg(sample(), new int[] {0, 0, 1}, 2).draw();
        Document d = parse(f.svg());
        assertEquals(List.of("rank 0 (node 0)", "rank 1 (node 0)", "node 0 NIC", "node 0 kernel", "rank 2 (node 1)",
                "node 1 NIC", "node 1 kernel"), laneNames(d));
        assertEquals(7, f.lanes());
        // a lane without events is drawn empty, and says so
        assertEquals("rank 2 (node 1): no spans", xpath(d, "/svg/g[@data-track='rank 2 (node 1)']/title")
                .item(0).getTextContent());
    }

    @Test
    void aWideSpanIsDrawnToItsExtentInItsKindsColour() throws Exception {
        TimelineFigure f = new TimelineSvg(sample(), TWO_NODES, 2).draw();
        Document d = parse(f.svg());
        NodeList reg = xpath(d, "/svg/g[@data-track='rank 0 (node 0)']/rect[@class='span registration']");
        assertEquals(1, reg.getLength());
        Element r = (Element) reg.item(0);
        assertEquals(TimelineKind.REGISTRATION.colour(), r.getAttribute("fill"));
        assertEquals(TimelineSvg.LABELS, Integer.parseInt(r.getAttribute("x")));
        // half the time range is half the columns, to the pixel
        assertEquals(TimelineSvg.COLUMNS / 2, Integer.parseInt(r.getAttribute("width")));
        Element t = (Element) xpath(d, "/svg/g[@data-track='node 0 NIC']/rect[@class='span wire']").item(0);
        assertEquals(TimelineSvg.LABELS + TimelineSvg.COLUMNS / 2, Integer.parseInt(t.getAttribute("x")));
        assertEquals(TimelineSvg.COLUMNS / 4, Integer.parseInt(t.getAttribute("width")), 1);
        assertEquals(1, xpath(d, "/svg/g[@data-track='node 1 kernel']/rect[@class='span pinning']").getLength());
    }

    @Test
    void spansBelowAPixelAreMergedAndCounted() throws Exception {
        TimelineFigure f = new TimelineSvg(sample(), TWO_NODES, 2).draw();
        assertEquals(104, f.spans());
        assertEquals(100, f.merged(), "the hundred waits are each narrower than a column");
        Document d = parse(f.svg());
        // the hundred waits fill every column from the first to the last: one rectangle
        NodeList waits = xpath(d, "/svg/g[@data-track='rank 1 (node 1)']/rect[@class='span wait']");
        assertEquals(1, waits.getLength());
        int width = Integer.parseInt(((Element) waits.item(0)).getAttribute("width"));
        double columns = 100_000 / (SPAN_PS / (double) TimelineSvg.COLUMNS);
        assertEquals(columns, width, 2, "from the first wait's column to the last one's");
        assertTrue(f.notes().getLast().startsWith("104 spans in 6 lanes, drawn as " + f.rectangles()
                + " rectangles: 100 spans narrower than one pixel (1.16 ns of simulated time) are merged"),
                f.notes().toString());
    }

    @Test
    void aColumnTakesTheKindThatFillsMostOfIt() throws Exception {
        TimelineEvents e = new TimelineEvents(100);
        e.add(TimelineKind.COMPUTE, Tracks.rank(0), 0, 700_000, 0);
        // a sliver of wait in a column the compute fills: the compute's colour
        e.add(TimelineKind.WAIT, Tracks.rank(0), 500_000, 10, 0);
        e.add(TimelineKind.WAIT, Tracks.rank(0), 700_000, 100_000, 0);
        e.add(TimelineKind.COMPUTE, Tracks.rank(0), 800_000, 200_000, 0);
        Document d = parse(new TimelineSvg(e, new int[] {0}, 1).draw().svg());
        NodeList waits = xpath(d, "/svg/g[@data-track='rank 0 (node 0)']/rect[@class='span wait']");
        assertEquals(1, waits.getLength(), "only the wide wait shows");
        assertEquals(TimelineSvg.LABELS + TimelineSvg.COLUMNS * 7 / 10,
                Integer.parseInt(((Element) waits.item(0)).getAttribute("x")), 1);
        assertEquals(2, xpath(d, "/svg/g[@data-track='rank 0 (node 0)']/rect[@class='span compute']").getLength(),
                "the compute before the wait and after it");
    }

    @Test
    void thePinnedMemoryLineRisesAndFallsWithTheCounter() throws Exception {
        TimelineFigure f = new TimelineSvg(sample(), TWO_NODES, 2).draw();
        Document d = parse(f.svg());
        Element line = (Element) xpath(d, "/svg/g[@class='counter']/polyline").item(0);
        String[] points = line.getAttribute("points").trim().split(" ");
        List<Double> ys = new ArrayList<>();
        for (String p : points) {
            ys.add(Double.parseDouble(p.split(",")[1]));
        }
        double top = ys.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
        // 1 MiB, then 2 MiB (the top), then 1 MiB again: the line ends where it began
        assertEquals(ys.getFirst(), ys.getLast(), 0.01);
        assertTrue(top < ys.getFirst(), ys.toString());
        assertTrue(f.svg().contains("up to 2 MiB"), "the counter's scale");
    }

    @Test
    void theAxisIsInAUnitThatSuitsTheSpan() throws Exception {
        Document d = parse(new TimelineSvg(sample(), TWO_NODES, 2).draw().svg());
        List<String> ticks = new ArrayList<>();
        NodeList t = xpath(d, "/svg/g[@class='axis']/text[@class='tick']");
        for (int i = 0; i < t.getLength(); i++) {
            ticks.add(t.item(i).getTextContent());
        }
        assertEquals(List.of("0", "200", "400", "600", "800", "1000"), ticks);
        assertEquals("simulated time (ns)", xpath(d, "/svg/g[@class='axis']/text[@class='axis-title']").item(0)
                .getTextContent());
        TimelineEvents slow = new TimelineEvents(10);
        slow.add(TimelineKind.COMPUTE, Tracks.rank(0), 0, 30_000_000_000L, 0);
        assertTrue(new TimelineSvg(slow, new int[] {0}, 1).draw().svg().contains("simulated time (ms)"));
    }

    @Test
    void theLegendNamesEveryKind() throws Exception {
        Document d = parse(new TimelineSvg(sample(), TWO_NODES, 2).draw().svg());
        String legend = xpath(d, "/svg/g[@class='legend']").item(0).getTextContent();
        for (TimelineKind k : TimelineKind.values()) {
            assertTrue(legend.contains(k.label()), k + " in " + legend);
        }
    }

    @Test
    void aCapReachedIsSaid() {
        TimelineEvents e = new TimelineEvents(5);
        for (int i = 0; i < 8; i++) {
            e.add(TimelineKind.COMPUTE, Tracks.rank(0), i * 1000L, 500, 0);
        }
        TimelineFigure f = new TimelineSvg(e, new int[] {0}, 1).draw();
        assertTrue(f.capped());
        assertEquals(5, f.kept());
        assertEquals(3, f.dropped());
        assertTrue(f.notes().getFirst().startsWith("The cap on events was reached: the run had 8 events and the first 5"
                + " were kept"), f.notes().toString());
        assertFalse(new TimelineSvg(sample(), TWO_NODES, 2).draw().notes().getFirst().contains("cap"));
    }

    @Test
    void theDrawingsSizeDoesNotGrowWithTheEvents() {
        TimelineEvents e = new TimelineEvents(200_000);
        for (int i = 0; i < 200_000; i++) {
            // blocks of 300 events of one kind, about a column and a half each: the kinds alternate all along
            e.add((i / 300) % 2 == 0 ? TimelineKind.WAIT : TimelineKind.COMPUTE, Tracks.rank(0), i * 100L, 60, 0);
        }
        TimelineFigure f = new TimelineSvg(e, new int[] {0}, 1).draw();
        assertEquals(200_000, f.merged());
        assertTrue(f.rectangles() > TimelineSvg.COLUMNS / 4, f.rectangles() + " rectangles: the kinds alternate");
        assertTrue(f.rectangles() <= TimelineSvg.COLUMNS, f.rectangles() + " rectangles");
        // a rectangle is under a hundred characters; one per event would be megabytes
        assertTrue(f.svg().length() < 100 * TimelineSvg.COLUMNS + 10_000, f.svg().length() + " characters");
    }
}
