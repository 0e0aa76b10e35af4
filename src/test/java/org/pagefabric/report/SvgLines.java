package org.pagefabric.report;

import java.awt.Color;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Reads the line segments XChart draws into an SVG, to check a figure's geometry without pixels. */
final class SvgLines {
    record Segment(double x1, double y1, double x2, double y2) {
        boolean vertical() {
            return x1 == x2;
        }
    }

    private SvgLines() {
    }

    /** Parses XML without fetching the SVG doctype's DTD (the build machine has no network). */
    static Document parse(String xml) throws Exception {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        f.setValidating(false);
        DocumentBuilder b = f.newDocumentBuilder();
        b.setErrorHandler(null);
        return b.parse(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)));
    }

    /** Every {@code <line>} stroked in this colour. */
    static List<Segment> lines(Document svg, Color color) {
        String stroke = "stroke:rgb(" + color.getRed() + "," + color.getGreen() + "," + color.getBlue() + ")";
        List<Segment> out = new ArrayList<>();
        NodeList nodes = svg.getElementsByTagName("line");
        for (int i = 0; i < nodes.getLength(); i++) {
            Element e = (Element) nodes.item(i);
            if (e.getAttribute("style").contains(stroke)) {
                out.add(new Segment(d(e, "x1"), d(e, "y1"), d(e, "x2"), d(e, "y2")));
            }
        }
        return out;
    }

    /**
     * The longest chain of connected non-vertical segments in this colour: a series' line drawn point to
     * point. Returns its vertices, which are the plotted points in pixels.
     */
    static List<double[]> polyline(Document svg, Color color) {
        List<Segment> segments = lines(svg, color).stream().filter(s -> !s.vertical()).toList();
        Map<String, Segment> byStart = new HashMap<>();
        segments.forEach(s -> byStart.put(s.x1() + "," + s.y1(), s));
        List<double[]> best = List.of();
        for (Segment start : segments) {
            List<double[]> chain = new ArrayList<>();
            chain.add(new double[] {start.x1(), start.y1()});
            Segment s = start;
            while (s != null) {
                chain.add(new double[] {s.x2(), s.y2()});
                s = byStart.get(s.x2() + "," + s.y2());
            }
            if (chain.size() > best.size()) {
                best = chain;
            }
        }
        return best;
    }

    private static double d(Element e, String attribute) {
        return Double.parseDouble(e.getAttribute(attribute));
    }
}
