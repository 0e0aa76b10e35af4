package org.pagefabric.report;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.pagefabric.experiment.VerificationNotice;

/**
 * Shared pieces of the HTML views: escaping, the stylesheet, tables, and inlining an SVG document.
 *
 * <p>The pages are written as polyglot HTML (valid HTML5 that is also well-formed XML) so that tests and
 * tools can parse them with any XML parser.
 */
final class Html {
    /**
     * One stylesheet for report and index, inline so that a page opened from disk, mailed or archived
     * looks the same without any other file or network access.
     */
    static final String CSS = """
            body { font-family: "DejaVu Sans", "Helvetica Neue", Arial, sans-serif; margin: 24px auto;
                   max-width: 1100px; padding: 0 16px; color: #1a1a1a; line-height: 1.4; }
            h1 { font-size: 1.6em; margin-bottom: 0.2em; }
            h2 { font-size: 1.2em; margin-top: 1.6em; border-bottom: 1px solid #ccd; padding-bottom: 0.2em; }
            .reproduces { color: #444; margin-top: 0; }
            .status { display: inline-block; padding: 2px 10px; border-radius: 10px; font-weight: bold;
                      font-size: 0.9em; }
            .status-complete { background: #d8f0dc; color: #14532d; }
            .status-stopped { background: #fff0c2; color: #6b4b00; }
            .status-unmet { background: #fbd5d5; color: #7f1d1d; }
            figure { margin: 1em 0; }
            figure svg { max-width: 100%; height: auto; border: 1px solid #e2e2e2; }
            figcaption { color: #444; font-size: 0.9em; margin-top: 0.3em; }
            table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
            th, td { border: 1px solid #c9d3e0; padding: 3px 8px; text-align: left; }
            td.num { text-align: right; font-variant-numeric: tabular-nums; }
            thead th { background: #dbe6f4; }
            tbody tr:nth-child(even) { background: #f2f6fb; }
            .withheld { color: #777; font-style: italic; }
            .note { color: #555; font-size: 0.9em; }
            .scroll { overflow-x: auto; }
            ul.requires li { color: #7f1d1d; }
            .verdict { display: inline-block; padding: 0 6px; border-radius: 6px; white-space: nowrap; }
            .verdict-within { background: #d8f0dc; color: #14532d; }
            .verdict-outside { background: #fbd5d5; color: #7f1d1d; font-weight: bold; }
            .verdict-not-comparable { background: #eeeeee; color: #555; }
            .verdict-withheld { background: #eef2fb; color: #555; font-style: italic; }
            .verdict-fragile { background: #fdecc8; color: #7c4a03; font-weight: bold; }
            .verdict-robust { background: #d8f0dc; color: #14532d; }
            p.tally { font-weight: bold; }
            td.count { text-align: right; font-variant-numeric: tabular-nums; }
            .expected-failures { background: #fef3c7; color: #78350f; border: 1px solid #b45309; border-radius: 6px;
                padding: .4em .8em; }
            .not-verified { background: #fbd5d5; color: #7f1d1d; border: 2px solid #b91c1c; border-radius: 6px;
                            padding: 8px 12px; font-weight: bold; }
            tbody tr.not-verified-row td { background: #fde8e8; color: #7f1d1d; }
            """;

    private static final Pattern ID = Pattern.compile("id=\"([^\"]+)\"");

    private Html() {
    }

    /** Text escaped for element content and double-quoted attributes. */
    static String escape(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(c);
            }
        }
        return b.toString();
    }

    /** Opening of a page: doctype, head with title and the inline stylesheet, opening body. */
    static String head(String title) {
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
                + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n<title>"
                + escape(title) + "</title>\n<style>\n" + CSS + "</style>\n</head>\n<body>\n";
    }

    /** Closing of a page. */
    static String foot() {
        return "</body>\n</html>\n";
    }

    /** A table of the given columns; numbers right-aligned, cells rendered by {@code cell}. */
    static void table(StringBuilder b, String cssClass, List<String> columns, List<Map<String, Object>> rows,
            BiFunction<String, Object, String> cell) {
        b.append("<div class=\"scroll\"><table class=\"").append(cssClass).append("\">\n<thead><tr>");
        for (String c : columns) {
            b.append("<th>").append(escape(AxisLabels.header(c))).append("</th>");
        }
        b.append("</tr></thead>\n<tbody>\n");
        for (Map<String, Object> r : rows) {
            b.append(VerificationNotice.failed(r) ? "<tr class=\"not-verified-row\">" : "<tr>");
            for (String c : columns) {
                Object v = r.get(c);
                b.append(v instanceof Number ? "<td class=\"num\">" : "<td>").append(cell.apply(c, v)).append("</td>");
            }
            b.append("</tr>\n");
        }
        b.append("</tbody>\n</table></div>\n");
    }

    /**
     * An SVG document made fit to sit inside an HTML page: without the XML declaration and doctype
     * (not allowed in HTML, and the doctype names a URL), without namespace declarations (the HTML parser
     * supplies them), and with every id prefixed so that two figures in one page cannot collide.
     */
    static String inlineSvg(String svg, String idPrefix) {
        String s = svg.substring(svg.indexOf("<svg"));
        s = s.replaceFirst(" xmlns:xlink=\"[^\"]*\"", "").replaceFirst(" xmlns=\"[^\"]*\"", "");
        Matcher m = ID.matcher(s);
        Set<String> ids = new LinkedHashSet<>();
        while (m.find()) {
            ids.add(m.group(1));
        }
        for (String id : ids) {
            s = s.replace("id=\"" + id + "\"", "id=\"" + idPrefix + id + "\"")
                    .replace("url(#" + id + ")", "url(#" + idPrefix + id + ")")
                    .replace("href=\"#" + id + "\"", "href=\"#" + idPrefix + id + "\"");
        }
        return s.strip();
    }
}
