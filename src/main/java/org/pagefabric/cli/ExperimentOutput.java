package org.pagefabric.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.pagefabric.experiment.ExperimentResult;
import org.pagefabric.experiment.ExperimentSpec;
import org.pagefabric.experiment.ExpectedFailures;
import org.pagefabric.experiment.ReferenceComparison;
import org.pagefabric.experiment.ResultWriter;
import org.pagefabric.experiment.VerdictTally;
import org.pagefabric.experiment.VerificationNotice;
import org.pagefabric.report.BandSegment;
import org.pagefabric.report.HtmlReport;
import org.pagefabric.report.IndexEntry;
import org.pagefabric.report.PaperPoint;
import org.pagefabric.report.PlotSpec;
import org.pagefabric.report.PolicyDecision;
import org.pagefabric.report.Plots;
import org.pagefabric.report.ReportMetadata;

/**
 * Writes what one experiment produced into its directory: the tidy rows, manifest and resolved
 * spec, the plot as PNG and SVG, and the self-contained HTML report; and says what the index
 * page shows for it.
 */
final class ExperimentOutput {
    private ExperimentOutput() {
    }

    /** Writes a finished (or stopped) experiment's results and report; returns its index entry. */
    static IndexEntry write(Path root, ExperimentResult result, List<Map<String, Object>> comparison) throws IOException {
        return write(root, null, result, comparison, null, null);
    }

    /**
     * Writes a finished (or stopped) experiment's results and report, the comparison headed by
     * {@link #tallyLine}; returns its index entry.
     *
     * @param declared the spec as written, whose set-up the paper's numbers belong to
     */
    static IndexEntry write(Path root, ExperimentSpec declared, ExperimentResult result,
                            List<Map<String, Object>> comparison) throws IOException {
        return write(root, declared, result, comparison, null, null);
    }

    /**
     * Writes a finished (or stopped) experiment's results and report, the report showing the
     * timeline of one point and its trace-event file beside it.
     *
     * @param timeline the timeline, or {@code null} for none
     */
    static IndexEntry write(Path root, ExperimentResult result, List<Map<String, Object>> comparison,
                            PointTimeline timeline) throws IOException {
        return write(root, null, result, comparison, null, timeline);
    }

    /**
     * Writes a comparison of policies: what {@link #write} writes, the report opening with the
     * decision, and the trade-off table beside the rows as {@code ranking.csv} and {@code ranking.json}.
     *
     * @param declared the spec as written, whose set-up the paper's numbers belong to
     */
    static IndexEntry writeComparison(Path root, ExperimentSpec declared, ExperimentResult result,
                                      List<Map<String, Object>> comparison, PolicyDecision decision,
                                      PointTimeline timeline) throws IOException {
        IndexEntry entry = write(root, declared, result, comparison, decision, timeline);
        java.util.Set<String> chosen = new java.util.LinkedHashSet<>();
        decision.recommendations().values().forEach(r -> chosen.add(r.substring(0, r.indexOf(':'))));
        String line = chosen.isEmpty() ? entry.line() : "recommended: " + String.join(", ", chosen)
                + (decision.apart().isEmpty() ? "" : "; " + decision.apart().size() + " reasons for policies not ranked");
        return new IndexEntry(entry.id(), entry.title(), entry.reproduces(), entry.status(), entry.href(), line,
                entry.tally());
    }

    /**
     * Writes every file of the experiment's directory, each whole or not at all, and the manifest
     * last: a manifest says {@code complete} only beside files that are all whole. A file that
     * cannot be written ends the run with a {@link org.pagefabric.experiment.WriteFailedException} naming it and the files
     * left unwritten; the manifest of an earlier run is removed first, so it never vouches for
     * files of this one.
     */
    private static IndexEntry write(Path root, ExperimentSpec declared, ExperimentResult result,
                                    List<Map<String, Object>> comparison, PolicyDecision decision,
                                    PointTimeline timeline) throws IOException {
        ExperimentSpec spec = result.spec();
        List<PaperPoint> paper = paperPoints(spec);
        Path dir = ResultWriter.directoryFor(root, spec.id());
        Files.createDirectories(dir);
        ResultWriter.removeManifest(dir);
        List<PlotSpec> plots = new ArrayList<>();
        if (spec.plot() != null && !result.rows().isEmpty()) {
            ExperimentSpec.Plot p = spec.plot();
            plots.add(new PlotSpec(p.x(), p.y(), p.series(), p.logx(), p.logy(), p.title()));
        }
        List<String> left = new ArrayList<>(List.of("rows.csv", "rows.json", "spec.resolved.yaml"));
        if (!comparison.isEmpty()) {
            left.addAll(List.of("comparison.csv", "comparison.json"));
        }
        if (decision != null) {
            left.addAll(List.of("ranking.csv", "ranking.json"));
        }
        if (!plots.isEmpty()) {
            left.addAll(List.of("plot.png", "plot.svg"));
        }
        if (timeline != null && timeline.json() != null) {
            left.add(PointTimeline.FILE_NAME);
        } else if (timeline != null) {
            // an earlier run's file would pass for this run's
            Files.deleteIfExists(dir.resolve(PointTimeline.FILE_NAME));
        }
        left.addAll(List.of(HtmlReport.FILE_NAME, ResultWriter.MANIFEST));
        ResultWriter.writeNext(dir, left, ResultWriter.csv(result.rows()));
        ResultWriter.writeNext(dir, left, ResultWriter.json(result.rows()));
        ResultWriter.writeNext(dir, left, ResultWriter.resolvedSpec(result));
        if (!comparison.isEmpty()) {
            // The verdicts beside the rows, for scripts and for fingerprints of what a run concluded.
            ResultWriter.writeNext(dir, left, ResultWriter.csv(comparison));
            ResultWriter.writeNext(dir, left, ResultWriter.json(comparison));
        }
        if (decision != null) {
            ResultWriter.writeNext(dir, left, ResultWriter.csv(decision.ranking()));
            ResultWriter.writeNext(dir, left, ResultWriter.json(decision.ranking()));
        }
        if (!plots.isEmpty()) {
            List<BandSegment> bands = bands(spec, comparison);
            ResultWriter.writeNext(dir, left, Plots.png(plots.getFirst(), result.rows(), paper, bands, Plots.WIDTH,
                    Plots.HEIGHT));
            ResultWriter.writeNext(dir, left, Plots.svg(plots.getFirst(), result.rows(), paper, bands, Plots.WIDTH,
                    Plots.HEIGHT));
        }
        ReportMetadata meta = new ReportMetadata(spec.id(), spec.title(), spec.paper(), spec.checks(), spec.requires(),
                result.complete(), ResultWriter.manifest(result), spec.expectedFailures().isEmpty() ? null
                : ExpectedFailures.check(spec, result.rows()).line(result.rows().size()),
                comparison.isEmpty() ? null : tallyLine(declared, result, comparison));
        if (timeline != null && timeline.json() != null) {
            ResultWriter.writeNext(dir, left, timeline.json());
        }
        ResultWriter.writeNext(dir, left, HtmlReport.render(meta, result.rows(), plots, paper, comparison, true,
                decision, timeline == null ? null : timeline.section()));
        ResultWriter.writeNext(dir, left, ResultWriter.json(ResultWriter.manifest(result)));
        ExpectedFailures outcome = ExpectedFailures.check(spec, result.rows());
        long failed = result.rows().stream().filter(VerificationNotice::failed).count();
        String line = !spec.expectedFailures().isEmpty() && (failed > 0 || !outcome.asExpected())
                ? outcome.line(result.rows().size())
                : failed == 0 ? result.rows().size() + " rows, all verified"
                : "NOT VERIFIED: " + failed + " of " + result.rows().size() + " rows failed the end-to-end data check";
        return IndexEntry.of(meta, spec.id() + "/" + HtmlReport.FILE_NAME, line, VerdictTally.of(comparison));
    }

    /**
     * The line that heads a run's output when rows failed: those its spec expects to fail are
     * said as such, anything else is {@code NOT VERIFIED}; {@code null} when every row verified.
     */
    static String verificationLine(ExperimentResult r) {
        ExperimentSpec s = r.spec();
        if (s.expectedFailures().isEmpty()) {
            return VerificationNotice.line(r.rows(), s.plot() == null ? null : s.plot().x());
        }
        return ExpectedFailures.check(s, r.rows()).line(r.rows().size());
    }

    /**
     * The paper's values of the plotted metric at numeric x, as our series name them; a value
     * stated for every x ({@code x: all}) is drawn at each x the grid has. Trends and withheld
     * values have no point.
     */
    static List<PaperPoint> paperPoints(ExperimentSpec spec) {
        List<PaperPoint> out = new ArrayList<>();
        if (spec.plot() == null) {
            return out;
        }
        ExperimentSpec.Axis xAxis = spec.axis(spec.plot().x());
        for (ExperimentSpec.Reference ref : spec.reference()) {
            if (ref.value() == null || !ref.metric().equals(spec.plot().y()) || ref.series() == null) {
                continue;
            }
            String series = spec.seriesLabels().getOrDefault(ref.series(), ref.series());
            List<Object> xs = ref.allX() && xAxis != null ? xAxis.values()
                    : ref.x() == null ? List.of() : List.of(ref.x());
            for (Object x : xs) {
                Double d = numeric(x);
                if (d != null) {
                    out.add(new PaperPoint(series, d, ref.value()));
                }
            }
        }
        return out;
    }

    /**
     * The bands of ours a sensitivity study put beside the comparison ({@code reproduce
     * --sensitivity}), for the plotted metric at a numeric x: the plot draws them as bars. A claim
     * over every x has its band at the x that decides it, which the comparison does not name, so
     * it is not drawn.
     */
    static List<BandSegment> bands(ExperimentSpec spec, List<Map<String, Object>> comparison) {
        List<BandSegment> out = new ArrayList<>();
        for (Map<String, Object> row : comparison) {
            Object band = row.get("band");
            Double x = row.get("x") == null ? null : numeric(row.get("x"));
            if (band == null || x == null || !spec.plot().y().equals(row.get("metric")) || row.get("series") == null) {
                continue;
            }
            String[] ends = String.valueOf(band).split(" \\.\\. ");
            Double low = ends.length == 2 ? numeric(ends[0]) : null;
            Double high = ends.length == 2 ? numeric(ends[1]) : null;
            if (low != null && high != null) {
                String series = String.valueOf(row.get("series"));
                out.add(new BandSegment(spec.seriesLabels().getOrDefault(series, series), x, low, high));
            }
        }
        return out;
    }

    private static Double numeric(Object x) {
        if (x instanceof Number n) {
            return n.doubleValue();
        }
        try {
            return Double.valueOf(String.valueOf(x));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** Writes the report of an experiment that cannot run yet: what it reproduces and why it waits. */
    static IndexEntry pending(Path root, ExperimentSpec spec) throws IOException {
        Path dir = ResultWriter.directoryFor(root, spec.id());
        Files.createDirectories(dir);
        ReportMetadata meta = new ReportMetadata(spec.id(), spec.title(), spec.paper(), spec.checks(), spec.requires(),
                false, Map.of());
        HtmlReport.write(dir, meta, List.of(), List.of(), List.of());
        return IndexEntry.of(meta, spec.id() + "/" + HtmlReport.FILE_NAME, "not reproducible yet: " + spec.requires().get(0));
    }

    /**
     * The tally of a comparison in one line ({@link VerdictTally#line()}); when the run compared
     * none because its set-up is not the paper's, it says how many a full run compares.
     *
     * @param declared the spec as written, or {@code null} when not known (the plain tally)
     */
    static String tallyLine(ExperimentSpec declared, ExperimentResult result, List<Map<String, Object>> comparison) {
        VerdictTally t = VerdictTally.of(comparison);
        if (declared == null || t.comparable() > 0) {
            return t.line();
        }
        return t.line(result.quick(), ReferenceComparison.comparedInFullRun(declared, result));
    }

    /**
     * The comparison with the paper, or nothing when the spec publishes no reference.
     *
     * @param declared the spec as written, whose set-up the paper's numbers belong to
     */
    static List<Map<String, Object>> comparison(ExperimentSpec declared, ExperimentResult result) {
        return declared.reference().isEmpty() ? List.of() : ReferenceComparison.compare(declared, result, declared);
    }
}
