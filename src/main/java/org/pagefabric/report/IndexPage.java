package org.pagefabric.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.pagefabric.experiment.VerdictTally;

/**
 * The page across experiments: one row per experiment with a link to its report, what it reproduces,
 * its status and one line of summary, plus a count per status so a reader sees at once how much of the
 * seeds the results cover.
 *
 * <p>The index accumulates: every experiment and comparison written under one results root stays
 * listed (its entry kept in {@value #ENTRIES_FILE} beside the page), a run of the same id replaces
 * its entry in place, and an entry whose report has been deleted drops out.
 */
public final class IndexPage {
    /** The index's file name in the results root. */
    public static final String FILE_NAME = "index.html";

    private IndexPage() {
    }

    /** The entries the index lists, for the next run to add to. */
    public static final String ENTRIES_FILE = "index.json";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    /**
     * Adds {@code entries} to the index of {@code root} (created if needed): an entry replaces
     * the one of the same id, a new one joins at the end. Returns the page's path.
     */
    public static Path write(Path root, List<IndexEntry> entries) throws IOException {
        Files.createDirectories(root);
        Map<String, IndexEntry> all = new LinkedHashMap<>();
        for (IndexEntry e : recorded(root)) {
            if (Files.isRegularFile(root.resolve(e.href()))) {
                all.put(e.id(), e);
            }
        }
        entries.forEach(e -> all.put(e.id(), e));
        List<IndexEntry> listed = new ArrayList<>(all.values());
        org.pagefabric.experiment.WholeFile.write(root.resolve(ENTRIES_FILE), JSON.writeValueAsString(listed));
        Path file = root.resolve(FILE_NAME);
        org.pagefabric.experiment.WholeFile.write(file, render(listed));
        return file;
    }

    /** The entries listed so far; none when there is no index yet or it is not ours to read. */
    static List<IndexEntry> recorded(Path root) throws IOException {
        Path f = root.resolve(ENTRIES_FILE);
        if (!Files.isRegularFile(f)) {
            return List.of();
        }
        try {
            return JSON.readValue(f.toFile(), new TypeReference<List<IndexEntry>>() { });
        } catch (JacksonException e) {
            // a file of another tool or an older layout: the index starts again rather than failing the run
            return List.of();
        }
    }

    /** The verdicts of several experiments added up. */
    static VerdictTally sum(List<VerdictTally> tallies) {
        int within = 0;
        int validated = 0;
        int withheld = 0;
        int notComparable = 0;
        int calibration = 0;
        for (VerdictTally t : tallies) {
            within += t.within();
            validated += t.validated();
            withheld += t.withheld();
            notComparable += t.notComparable();
            calibration += t.calibration();
        }
        return new VerdictTally(within, validated, withheld, notComparable, calibration);
    }

    /** A count in the colour reports give its verdict; a zero stays plain, so the colours point at what is there. */
    private static String count(String verdict, int n, String label) {
        return n == 0 ? "0 " + label : "<span class=\"verdict-" + verdict + "\">" + n + " " + label + "</span>";
    }

    private static void cell(StringBuilder b, String verdict, int n) {
        b.append(n == 0 ? "<td class=\"count\">0</td>" : "<td class=\"count verdict-" + verdict + "\">" + n + "</td>");
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
        List<VerdictTally> tallies = entries.stream().map(IndexEntry::tally).filter(java.util.Objects::nonNull).toList();
        if (!tallies.isEmpty()) {
            VerdictTally total = sum(tallies);
            b.append("<p class=\"tally\" id=\"fidelity\">Published numbers: ")
                    .append(count("within", total.within(), "within tolerance")).append(", ")
                    .append(count("outside", total.outside(), "outside")).append(", ")
                    .append(count("not-comparable", total.notComparable(), "not comparable")).append(", ")
                    .append(count("withheld", total.withheld(), "withheld by the paper"));
            if (total.calibration() > 0) {
                b.append(", ").append(total.calibration()).append(" calibration targets");
            }
            b.append(". ").append(Html.escape(total.total())).append(".</p>\n");
        }
        b.append("<table class=\"index\">\n<thead><tr><th>experiment</th><th>reproduces</th><th>status</th>"
                + "<th>within</th><th>outside</th><th>not comparable</th><th>withheld</th>"
                + "<th>summary</th></tr></thead>\n<tbody>\n");
        for (IndexEntry e : entries) {
            b.append("<tr><td><a href=\"").append(Html.escape(e.href())).append("\">").append(Html.escape(e.title()))
                    .append("</a><br/><code>").append(Html.escape(e.id())).append("</code></td><td>")
                    .append(Html.escape(e.reproduces())).append("</td><td>").append(HtmlReport.badge(e.status()))
                    .append("</td>");
            VerdictTally t = e.tally();
            if (t == null) {
                b.append("<td colspan=\"4\" class=\"note\">no published number</td>");
            } else {
                cell(b, "within", t.within());
                cell(b, "outside", t.outside());
                cell(b, "not-comparable", t.notComparable());
                cell(b, "withheld", t.withheld());
            }
            b.append("<td>").append(Html.escape(e.line())).append("</td></tr>\n");
        }
        return b.append("</tbody>\n</table>\n").append(Html.foot()).toString();
    }
}
