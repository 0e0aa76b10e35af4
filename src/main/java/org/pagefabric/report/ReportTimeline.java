package org.pagefabric.report;

import java.util.List;

/**
 * The timeline of one point of a run, as a report shows it.
 *
 * @param point what was recorded: which policy at which point, and how
 * @param svg   the drawing, an {@code <svg>} element; {@code null} when there is none to show
 *              (the notes say why)
 * @param notes what a reader must know about the drawing: a cap reached, spans merged
 * @param json  the trace-event file beside the report, relative to it; {@code null} when none
 *              was written
 */
public record ReportTimeline(String point, String svg, List<String> notes, String json) {
    /** Copies the notes. */
    public ReportTimeline {
        notes = List.copyOf(notes);
    }
}
