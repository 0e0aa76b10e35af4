package org.pagefabric.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The page across experiments: one row per experiment with a link to its report, what it reproduces,
 * its status and one line of summary, plus a count per status so a reader sees at once how much of the
 * seeds the results cover.
 */
public final class IndexPage {
    /** The index's file name in the results root. */
    public static final String FILE_NAME = "index.html";

    private IndexPage() {
    }

    /** Writes {@value #FILE_NAME} into {@code root} (created if needed) and returns its path. */
    public static Path write(Path root, List<IndexEntry> entries) throws IOException {
        Files.createDirectories(root);
        Path file = root.resolve(FILE_NAME);
        Files.writeString(file, render(entries), StandardCharsets.UTF_8);
        return file;
    }

    /** The index as a string; entries appear in the order given. */
    public static String render(List<IndexEntry> entries) {
        StringBuilder b = new StringBuilder(Html.head("PageFabric experiments"));
        b.append("<h1>PageFabric experiments</h1>\n<p class=\"reproduces\">");
        Map<RunStatus, Integer> counts = new EnumMap<>(RunStatus.class);
        entries.forEach(e -> counts.merge(e.status(), 1, Integer::sum));
        b.append(entries.size()).append(entries.size() == 1 ? " experiment" : " experiments");
        for (RunStatus s : RunStatus.values()) {
            if (counts.containsKey(s)) {
                b.append(", ").append(counts.get(s)).append(' ').append(s.label());
            }
        }
        b.append(".</p>\n");
        if (entries.isEmpty()) {
            return b.append("<p class=\"note\">No experiments have results yet.</p>\n").append(Html.foot()).toString();
        }
        b.append("<table class=\"index\">\n<thead><tr><th>experiment</th><th>reproduces</th><th>status</th>"
                + "<th>summary</th></tr></thead>\n<tbody>\n");
        for (IndexEntry e : entries) {
            b.append("<tr><td><a href=\"").append(Html.escape(e.href())).append("\">").append(Html.escape(e.title()))
                    .append("</a><br/><code>").append(Html.escape(e.id())).append("</code></td><td>")
                    .append(Html.escape(e.reproduces())).append("</td><td>").append(HtmlReport.badge(e.status()))
                    .append("</td><td>").append(Html.escape(e.line())).append("</td></tr>\n");
        }
        return b.append("</tbody>\n</table>\n").append(Html.foot()).toString();
    }
}
