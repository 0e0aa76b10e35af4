package org.pagefabric.report;

import java.util.Objects;
import org.pagefabric.experiment.VerdictTally;

/**
 * One experiment on the index page.
 *
 * @param id         the experiment's id
 * @param title      its title
 * @param reproduces what it reproduces, for example "seed 000, Fig. 7" (may be empty)
 * @param status     how far it got
 * @param href       relative path from the index to the experiment's report, for example
 *                   {@code part-latency/report.html}
 * @param line       one line of summary, for example a headline number or why it did not run
 * @param tally      how its published numbers compare with ours, or {@code null} when it has none
 */
public record IndexEntry(String id, String title, String reproduces, RunStatus status, String href, String line,
        VerdictTally tally) {

    /** Checks that the link stays inside the results tree, so the index is as self-contained as reports. */
    public IndexEntry {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(href, "href");
        if (href.contains("://") || href.startsWith("/") || href.contains("\\")) {
            throw new IllegalArgumentException("index entry " + id + ": href must be a relative path such as "
                    + id + "/" + HtmlReport.FILE_NAME + ", not " + href);
        }
        title = title == null || title.isBlank() ? id : title;
        reproduces = reproduces == null ? "" : reproduces;
        line = line == null ? "" : line;
    }

    /** An entry without verdicts: an experiment that publishes no number, or did not run. */
    public IndexEntry(String id, String title, String reproduces, RunStatus status, String href, String line) {
        this(id, title, reproduces, status, href, line, null);
    }

    /** The entry for an experiment whose report is at {@code href}, described by its metadata. */
    public static IndexEntry of(ReportMetadata meta, String href, String line) {
        return of(meta, href, line, null);
    }

    /** The entry for an experiment with its verdicts ({@code null} or empty when it publishes no number). */
    public static IndexEntry of(ReportMetadata meta, String href, String line, VerdictTally tally) {
        boolean none = tally == null || tally.validated() + tally.withheld() + tally.notComparable()
                + tally.calibration() == 0;
        return new IndexEntry(meta.id(), meta.title(), meta.reproduces(), meta.status(), href, line,
                none ? null : tally);
    }
}
