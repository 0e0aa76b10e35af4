package org.pagefabric.report;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a report says about an experiment besides its rows: identity, what it reproduces, whether it
 * could run and finished, and the run's manifest.
 *
 * @param id       the experiment's id, for example {@code part-latency-no-fault}
 * @param title    a one-line title, for example "Latency of RDMA writes without page faults"
 * @param paper    the seed it reproduces, for example "000"
 * @param where    where in that seed, for example "Fig. 7"
 * @param requires prerequisites that are not met (empty when the experiment could run)
 * @param complete whether every run of the grid finished
 * @param manifest the run's manifest fields in display order (seed, version, commit, JVM, ...)
 * @param expectedFailures the line saying which rows failed as the spec expects (and any that did
 *                 not come out as expected), or {@code null} when the spec expects no failure
 * @param tally    the line that heads the comparison with the paper, or {@code null} for the tally
 *                 of its rows ({@link org.pagefabric.experiment.VerdictTally#line()}); a run whose
 *                 set-up is not the paper's says there what a full run compares
 */
public record ReportMetadata(String id, String title, String paper, String where, List<String> requires,
        boolean complete, Map<String, Object> manifest, String expectedFailures, String tally) {

    /** Metadata whose comparison is headed by the tally of its rows. */
    public ReportMetadata(String id, String title, String paper, String where, List<String> requires,
            boolean complete, Map<String, Object> manifest, String expectedFailures) {
        this(id, title, paper, where, requires, complete, manifest, expectedFailures, null);
    }

    /** Metadata of an experiment that expects no failure. */
    public ReportMetadata(String id, String title, String paper, String where, List<String> requires,
            boolean complete, Map<String, Object> manifest) {
        this(id, title, paper, where, requires, complete, manifest, null, null);
    }

    /** Checks the identity and copies the collections, keeping the manifest's order. */
    public ReportMetadata {
        Objects.requireNonNull(id, "id");
        if (id.isBlank()) {
            throw new IllegalArgumentException("report: experiment id must not be blank");
        }
        title = title == null || title.isBlank() ? id : title;
        paper = paper == null ? "" : paper;
        where = where == null ? "" : where;
        requires = requires == null ? List.of() : List.copyOf(requires);
        manifest = manifest == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(manifest));
    }

    /**
     * The status: unmet prerequisites take precedence, because an experiment that could not run has no
     * meaningful completeness; otherwise complete or stopped early.
     */
    public RunStatus status() {
        if (!requires.isEmpty()) {
            return RunStatus.UNMET_PREREQUISITES;
        }
        return complete ? RunStatus.COMPLETE : RunStatus.STOPPED_EARLY;
    }

    /** What the experiment reproduces, for example "seed 000, Fig. 7", or "" when it reproduces nothing. */
    public String reproduces() {
        if (paper.isBlank()) {
            return where;
        }
        return "seed " + paper + (where.isBlank() ? "" : ", " + where);
    }
}
