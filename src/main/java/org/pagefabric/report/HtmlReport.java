package org.pagefabric.report;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.pagefabric.experiment.VerdictTally;
import org.pagefabric.experiment.VerificationNotice;

/**
 * One self-contained HTML page per experiment: title, what it reproduces, status, figures, comparison
 * with the paper, the tidy rows and the manifest.
 *
 * <p>Self-contained means the page needs no other file and no network: the stylesheet is inline, the
 * figures are inline SVG, there is no script and no URL with a scheme. The only links are relative:
 * {@code rows.csv} next to the report, given when that file exists, and a timeline's trace-event
 * file beside it. The same inputs give the same bytes, so reports can be diffed across commits.
 */
public final class HtmlReport {
    /** The report's file name inside the experiment's directory. */
    public static final String FILE_NAME = "report.html";
    /** The most rows the page lists; beyond this a browser slows down and a reader wants the CSV. */
    public static final int MAX_ROWS = 500;
    /** Name of the runner's CSV of all rows, linked when the page shows only some. */
    public static final String ROWS_CSV = "rows.csv";

    private static final List<String> COMPARISON_COLUMNS = List.of("series", "x", "metric", "paper", "tolerance", "ours",
            "ratio", "verdict", "role", "note", "where");
    private static final String WITHHELD = "[withheld]";

    private HtmlReport() {
    }

    /**
     * Writes {@value #FILE_NAME} into {@code dir} (created if needed) and returns its path.
     *
     * @param dir        the experiment's results directory
     * @param meta       identity, status and manifest
     * @param rows       the tidy rows
     * @param plots      the figures to draw from the rows, in order
     * @param comparison rows with columns series, x, metric, paper, ours, ratio (paper may be
     *                   {@code "[withheld]"}); empty when the experiment has nothing to compare
     */
    public static Path write(Path dir, ReportMetadata meta, List<Map<String, Object>> rows, List<PlotSpec> plots,
            List<Map<String, Object>> comparison) throws IOException {
        return write(dir, meta, rows, plots, List.of(), comparison);
    }

    /**
     * Writes {@value #FILE_NAME}, the figures carrying the paper's values as hollow markers.
     *
     * @param paper the paper's values of the figures' metric, per series and x
     */
    public static Path write(Path dir, ReportMetadata meta, List<Map<String, Object>> rows, List<PlotSpec> plots,
            List<PaperPoint> paper, List<Map<String, Object>> comparison) throws IOException {
        return write(dir, meta, rows, plots, paper, comparison, null);
    }

    /**
     * Writes {@value #FILE_NAME} of a comparison of policies: the decision (recommendations,
     * ranking table, trade-off scatter per x, policies listed apart) first, then the rest.
     *
     * @param decision what the comparison decided, or {@code null} for an experiment's report
     */
    public static Path write(Path dir, ReportMetadata meta, List<Map<String, Object>> rows, List<PlotSpec> plots,
            List<PaperPoint> paper, List<Map<String, Object>> comparison, PolicyDecision decision) throws IOException {
        Files.createDirectories(dir);
        Path file = dir.resolve(FILE_NAME);
        String html = render(meta, rows, plots, paper, comparison, Files.isRegularFile(dir.resolve(ROWS_CSV)), decision);
        org.pagefabric.experiment.WholeFile.write(file, html);
        return file;
    }

    /**
     * The report as a string.
     *
     * @param rowsCsvExists whether {@value #ROWS_CSV} sits beside the report, so the page may link it
     */
    public static String render(ReportMetadata meta, List<Map<String, Object>> rows, List<PlotSpec> plots,
            List<Map<String, Object>> comparison, boolean rowsCsvExists) {
        return render(meta, rows, plots, List.of(), comparison, rowsCsvExists);
    }

    /** The report as a string, the figures carrying the paper's values as hollow markers. */
    public static String render(ReportMetadata meta, List<Map<String, Object>> rows, List<PlotSpec> plots,
            List<PaperPoint> paper, List<Map<String, Object>> comparison, boolean rowsCsvExists) {
        return render(meta, rows, plots, paper, comparison, rowsCsvExists, null);
    }

    /** The report as a string, with a comparison's decision first when {@code decision} is not {@code null}. */
    public static String render(ReportMetadata meta, List<Map<String, Object>> rows, List<PlotSpec> plots,
            List<PaperPoint> paper, List<Map<String, Object>> comparison, boolean rowsCsvExists,
            PolicyDecision decision) {
        return render(meta, rows, plots, paper, comparison, rowsCsvExists, decision, null);
    }

    /**
     * The report as a string, with the timeline of one point after the figures when
     * {@code timeline} is not {@code null}.
     */
    public static String render(ReportMetadata meta, List<Map<String, Object>> rows, List<PlotSpec> plots,
            List<PaperPoint> paper, List<Map<String, Object>> comparison, boolean rowsCsvExists,
            PolicyDecision decision, ReportTimeline timeline) {
        StringBuilder b = new StringBuilder(Html.head(meta.title() + " \u2014 PageFabric"));
        b.append("<header>\n");
        String notVerified = meta.expectedFailures() != null
                ? (meta.expectedFailures().startsWith("NOT") ? meta.expectedFailures() : null)
                : VerificationNotice.line(rows, plots.isEmpty() ? null : plots.get(0).x());
        if (meta.expectedFailures() != null && notVerified == null) {
            b.append("<p class=\"expected-failures\" id=\"expected-failures\">").append(Html.escape(
                    meta.expectedFailures())).append("; every other row verified</p>\n");
        }
        if (notVerified != null) {
            b.append("<p class=\"not-verified\" id=\"not-verified\">").append(Html.escape(notVerified))
                    .append("</p>\n");
        }
        b.append("<h1>").append(Html.escape(meta.title())).append("</h1>\n");
        b.append("<p class=\"reproduces\">Experiment <code>").append(Html.escape(meta.id())).append("</code>");
        if (!meta.reproduces().isBlank()) {
            b.append(" reproduces ").append(Html.escape(meta.reproduces()));
        }
        b.append(". Status: ").append(badge(meta.status())).append("</p>\n");
        if (!meta.requires().isEmpty()) {
            b.append("<p>It did not run because these prerequisites are not met:</p>\n<ul class=\"requires\">\n");
            meta.requires().forEach(r -> b.append("<li>").append(Html.escape(r)).append("</li>\n"));
            b.append("</ul>\n");
        } else if (!meta.complete()) {
            b.append("<p class=\"note\">The run stopped before the whole parameter grid was measured; figures and "
                    + "tables show the rows that were.</p>\n");
        }
        b.append("</header>\n");

        if (decision != null) {
            decision(b, decision);
        }
        figures(b, rows, plots, paper);
        if (timeline != null) {
            timeline(b, timeline);
        }
        comparison(b, comparison, meta.tally());
        rows(b, rows, rowsCsvExists);
        manifest(b, meta);
        return b.append(Html.foot()).toString();
    }

    static String badge(RunStatus status) {
        return "<span class=\"status " + status.cssClass() + "\">" + status.label() + "</span>";
    }

    private static void figures(StringBuilder b, List<Map<String, Object>> rows, List<PlotSpec> plots,
            List<PaperPoint> paper) {
        if (plots.isEmpty()) {
            return;
        }
        b.append("<section id=\"figures\">\n<h2>Figures</h2>\n");
        int n = 0;
        for (PlotSpec spec : plots) {
            n++;
            b.append("<figure id=\"figure-").append(n).append("\">\n");
            if (rows.isEmpty()) {
                b.append("<p class=\"note\">No rows to plot ").append(Html.escape(spec.y())).append(" from.</p>\n");
            } else {
                try {
                    String svg = Plots.svg(spec, rows, paper, Plots.WIDTH, Plots.HEIGHT);
                    b.append(Html.inlineSvg(svg, "f" + n + "-")).append('\n');
                    b.append("<figcaption>Figure ").append(n).append(". ")
                            .append(Html.escape(Plots.caption(spec, rows)))
                            .append(paper.isEmpty() ? "" : " Hollow circles: the paper's values, in the colour of"
                                    + " their series.").append("</figcaption>\n");
                } catch (IllegalArgumentException e) {
                    // A bad plot description must not cost the reader the rest of the report.
                    b.append("<p class=\"note\">Figure ").append(n).append(" could not be drawn: ")
                            .append(Html.escape(e.getMessage())).append("</p>\n");
                }
            }
            b.append("</figure>\n");
        }
        b.append("</section>\n");
    }

    /** The timeline of one point: what was recorded, the drawing, its notes, and the file for a trace viewer. */
    private static void timeline(StringBuilder b, ReportTimeline t) {
        b.append("<section id=\"timeline\">\n<h2>Timeline of one point</h2>\n<p class=\"note\">")
                .append(Html.escape(t.point())).append("</p>\n");
        if (t.svg() != null) {
            b.append("<figure id=\"timeline-figure\">\n").append(Html.inlineSvg(t.svg(), "tl-"))
                    .append("\n<figcaption>What each rank, NIC and kernel did when: one lane each, spans coloured"
                            + " by kind (legend below the axis), and the job's pinned memory as a line under the"
                            + " lanes. Hover a lane for its count of spans per kind.</figcaption>\n</figure>\n");
        }
        t.notes().forEach(n -> b.append("<p class=\"note timeline-note\">").append(Html.escape(n)).append("</p>\n"));
        if (t.json() != null) {
            b.append("<p class=\"note\">Every kept event as Chrome trace-event JSON: <a href=\"")
                    .append(Html.escape(t.json())).append("\">").append(Html.escape(t.json()))
                    .append("</a>; open it in Perfetto (ui.perfetto.dev, Open trace file) or in chrome://tracing"
                            + " (Load) to zoom into single spans.</p>\n");
        }
        b.append("</section>\n");
    }

    /** Recommendations, the trade-off scatter of each x, the ranking table and the policies set apart. */
    private static void decision(StringBuilder b, PolicyDecision d) {
        b.append("<section id=\"decision\">\n<h2>Which policy</h2>\n<ul class=\"recommendations\">\n");
        d.recommendations().forEach((x, line) -> b.append("<li>At ").append(Html.escape(xLabel(d.xColumn(), x)))
                .append(": <strong>").append(Html.escape(line)).append("</strong></li>\n"));
        b.append("</ul>\n");
        List<String> policies = new ArrayList<>();
        d.ranking().forEach(r -> {
            String p = String.valueOf(r.get("policy"));
            if (!policies.contains(p)) {
                policies.add(p);
            }
        });
        Map<Object, List<Map<String, Object>>> byX = new java.util.LinkedHashMap<>();
        d.ranking().forEach(r -> byX.computeIfAbsent(r.get(d.xColumn()), k -> new ArrayList<>()).add(r));
        int n = 0;
        for (var e : byX.entrySet()) {
            n++;
            try {
                String svg = Plots.tradeOffSvg("At " + xLabel(d.xColumn(), e.getKey()), d.metric(), d.pinnedColumn(),
                        e.getValue(), policies, Plots.WIDTH, Plots.HEIGHT);
                b.append("<figure id=\"trade-off-").append(n).append("\">\n")
                        .append(Html.inlineSvg(svg, "t" + n + "-")).append("\n<figcaption>Trade-off at ")
                        .append(Html.escape(xLabel(d.xColumn(), e.getKey()))).append(": ")
                        .append(Html.escape(AxisLabels.title(d.metric()))).append(" against ")
                        .append(Html.escape(AxisLabels.title(d.pinnedColumn())))
                        .append(", one point per ranked policy.</figcaption>\n</figure>\n");
            } catch (IllegalArgumentException ex) {
                b.append("<p class=\"note\">").append(Html.escape(ex.getMessage())).append("</p>\n");
            }
        }
        if (!d.ranking().isEmpty()) {
            List<String> columns = new ArrayList<>(d.ranking().get(0).keySet());
            Html.table(b, "ranking", columns, d.ranking(), (column, v) -> {
                if (column.equals(d.xColumn())) {
                    return Html.escape(xLabel(column, v));
                }
                if (column.equals("pareto")) {
                    return Boolean.TRUE.equals(v) ? "\u2605 Pareto-optimal" : "";
                }
                return v == null ? "\u2014" : Html.escape(AxisLabels.cell(column, v));
            });
            b.append("<p class=\"note\">Ranked by ").append(Html.escape(AxisLabels.title(d.metric())))
                    .append("; values within rounding share a rank and are ordered by pinned memory, then name."
                            + " Pareto-optimal: no other policy is as good in both the metric and pinned memory and"
                            + " better in one.</p>\n");
        }
        if (!d.apart().isEmpty()) {
            b.append("<h3>Not ranked</h3>\n<ul class=\"apart\">\n");
            d.apart().forEach(l -> b.append("<li>").append(Html.escape(l)).append("</li>\n"));
            b.append("</ul>\n");
        }
        b.append("</section>\n");
    }

    /** An x in its unit: a byte size as 64 KiB, a count or name as is. */
    private static String xLabel(String column, Object x) {
        if (x instanceof Number num && AxisLabels.isBytes(column)) {
            return AxisLabels.bytes(num.doubleValue()) + " (" + column + " " + AxisLabels.cell(x) + ")";
        }
        return AxisLabels.header(column) + " " + AxisLabels.cell(column, x);
    }

    private static void comparison(StringBuilder b, List<Map<String, Object>> comparison, String given) {
        if (comparison == null || comparison.isEmpty()) {
            return;
        }
        b.append("<section id=\"comparison\">\n<h2>Comparison with the paper</h2>\n");
        String tally = given != null ? given : VerdictTally.of(comparison).line();
        b.append("<p class=\"tally\">").append(Html.escape(Character.toUpperCase(tally.charAt(0)) + tally.substring(1)))
                .append("</p>\n");
        b.append("<p class=\"note\">ratio = ours / paper; a value is within tolerance when the ratio lies in the"
                + " tolerance interval, or ours satisfies the stated bound or trend. Values the seed withholds are"
                + " shown as <span class=\"withheld\">[withheld]</span>: the model must reproduce them without seeing"
                + " them. Not comparable: the run's set-up is not the paper's (a --quick run, a --set value, an x"
                + " that did not run). Calibration targets are published numbers a profile parameter was fitted"
                + " on; every other number validates the model.</p>\n");
        if (comparison.stream().anyMatch(r -> r.containsKey("robustness"))) {
            b.append("<p class=\"note\">band: the lowest and highest of ours over a pagefabric sensitivity study,"
                    + " which moved every assumed and fitted cost the experiment reads across its plausible range, one"
                    + " at a time and together. Robust: every run reaches the verdict shown; fragile: some run turns"
                    + " it, and hinges_on names the ends of the ranges that do.</p>\n");
        }
        List<String> columns = new ArrayList<>(COMPARISON_COLUMNS);
        columns.removeIf(c -> comparison.stream().noneMatch(r -> r.containsKey(c)));
        columns(comparison).stream().filter(c -> !columns.contains(c)).forEach(columns::add);
        Html.table(b, "comparison", columns, comparison, (column, v) -> {
            if (v == null) {
                return "\u2014";
            }
            if (WITHHELD.equals(v)) {
                return "<span class=\"withheld\">" + WITHHELD + "</span>";
            }
            if (column.equals("verdict") || column.equals("robustness")) {
                return "<span class=\"verdict verdict-" + String.valueOf(v).replace(' ', '-') + "\">"
                        + Html.escape(String.valueOf(v)) + "</span>";
            }
            if (v instanceof Number num && !column.equals("x")) {
                return Html.escape(AxisLabels.number(num.doubleValue(), column.equals("ratio") ? 3 : 4));
            }
            return Html.escape(AxisLabels.cell(v));
        });
        b.append("</section>\n");
    }

    private static void rows(StringBuilder b, List<Map<String, Object>> rows, boolean rowsCsvExists) {
        b.append("<section id=\"rows\">\n<h2>Results</h2>\n");
        if (rows.isEmpty()) {
            b.append("<p class=\"note\">No rows.</p>\n</section>\n");
            return;
        }
        List<Map<String, Object>> shown = rows.size() > MAX_ROWS ? rows.subList(0, MAX_ROWS) : rows;
        b.append("<p class=\"note\">");
        if (shown.size() < rows.size()) {
            b.append("The first ").append(shown.size()).append(" of ").append(rows.size()).append(" rows. ");
        } else {
            b.append("All ").append(rows.size()).append(rows.size() == 1 ? " row" : " rows").append(". ");
        }
        b.append("Fractions are rounded to 6 significant digits");
        if (rowsCsvExists) {
            b.append("; every row at full precision is in <a href=\"").append(ROWS_CSV).append("\">")
                    .append(ROWS_CSV).append("</a>");
        }
        b.append(".</p>\n");
        Html.table(b, "rows", columns(rows), shown, (column, v) -> Html.escape(AxisLabels.cell(column, v)));
        b.append("</section>\n");
    }

    private static void manifest(StringBuilder b, ReportMetadata meta) {
        b.append("<section id=\"manifest\">\n<h2>Manifest</h2>\n<table class=\"manifest\">\n<tbody>\n");
        b.append("<tr><th>experiment</th><td>").append(Html.escape(meta.id())).append("</td></tr>\n");
        b.append("<tr><th>status</th><td>").append(meta.status().label()).append("</td></tr>\n");
        meta.manifest().forEach((k, v) -> {
            if (!k.equals("experiment")) { // the first row already names it
                b.append("<tr><th>").append(Html.escape(k)).append("</th><td>")
                        .append(Html.escape(AxisLabels.cell(v))).append("</td></tr>\n");
            }
        });
        b.append("</tbody>\n</table>\n</section>\n");
    }

    private static List<String> columns(List<Map<String, Object>> rows) {
        Set<String> cols = new LinkedHashSet<>();
        rows.forEach(r -> cols.addAll(r.keySet()));
        return new ArrayList<>(cols);
    }
}
