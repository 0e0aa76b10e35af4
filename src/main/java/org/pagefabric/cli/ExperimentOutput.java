package org.pagefabric.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.pagefabric.experiment.ExperimentResult;
import org.pagefabric.experiment.ExperimentSpec;
import org.pagefabric.experiment.ReferenceComparison;
import org.pagefabric.experiment.ResultWriter;
import org.pagefabric.report.HtmlReport;
import org.pagefabric.report.IndexEntry;
import org.pagefabric.report.PlotSpec;
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
        ExperimentSpec spec = result.spec();
        Path dir = root.resolve(spec.id());
        ResultWriter.write(result, dir);
        List<PlotSpec> plots = new ArrayList<>();
        if (spec.plot() != null && !result.rows().isEmpty()) {
            ExperimentSpec.Plot p = spec.plot();
            PlotSpec ps = new PlotSpec(p.x(), p.y(), p.series(), p.logx(), p.logy(), p.title());
            Plots.writePng(dir.resolve("plot.png"), ps, result.rows());
            Plots.writeSvg(dir.resolve("plot.svg"), ps, result.rows());
            plots.add(ps);
        }
        ReportMetadata meta = new ReportMetadata(spec.id(), spec.title(), spec.paper(), spec.where(), spec.requires(),
                result.complete(), ResultWriter.manifest(result));
        HtmlReport.write(dir, meta, result.rows(), plots, comparison);
        String line = result.rows().size() + " rows" + (result.allVerified() ? ", all verified" : ", SOME NOT VERIFIED");
        return IndexEntry.of(meta, spec.id() + "/" + HtmlReport.FILE_NAME, line);
    }

    /** Writes the report of an experiment that cannot run yet: what it reproduces and why it waits. */
    static IndexEntry pending(Path root, ExperimentSpec spec) throws IOException {
        Path dir = root.resolve(spec.id());
        Files.createDirectories(dir);
        ReportMetadata meta = new ReportMetadata(spec.id(), spec.title(), spec.paper(), spec.where(), spec.requires(),
                false, Map.of());
        HtmlReport.write(dir, meta, List.of(), List.of(), List.of());
        return IndexEntry.of(meta, spec.id() + "/" + HtmlReport.FILE_NAME, "not reproducible yet: " + spec.requires().get(0));
    }

    /** The comparison with the paper, or nothing when the spec publishes no reference. */
    static List<Map<String, Object>> comparison(ExperimentResult result) {
        return result.spec().reference().isEmpty() ? List.of() : ReferenceComparison.compare(result.spec(), result);
    }
}
