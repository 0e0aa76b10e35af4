package org.pagefabric.cli;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.List;
import org.pagefabric.comm.Job;
import org.pagefabric.experiment.ExperimentPoint;
import org.pagefabric.experiment.ExperimentRunner;
import org.pagefabric.report.ReportTimeline;
import org.pagefabric.report.timeline.TimelineFigure;
import org.pagefabric.report.timeline.TimelineRecorder;

/**
 * The timeline of one point for a report, recorded in a run of that point alone, apart from the
 * run that measured the rows: the recorder only listens, and the rows do not come from its run, so
 * recording cannot change them. Its events are kept up to {@link TimelineRecorder#REPORT_CAPACITY}.
 *
 * @param section what the report shows
 * @param json    the trace-event file to write beside the report as {@value #FILE_NAME}, or
 *                {@code null} when there is none (the workload builds no job, the point failed)
 */
record PointTimeline(ReportTimeline section, String json) {
    /** The trace-event file's name in the experiment's directory. */
    static final String FILE_NAME = "timeline.json";

    /**
     * Runs the point at {@code index} in run order of {@code runner} (a fresh runner of the same
     * spec, options and seed as the rows' run) alone with a recorder attached.
     *
     * @param what  which point this is and why it was chosen, for the reader
     * @param title the command, for the trace-event file's title
     */
    static PointTimeline record(ExperimentRunner runner, int index, String what, String title) {
        ExperimentPoint p = runner.points().get(index);
        String point = what + " Recorded in a run of this point alone, apart from the run that measured the"
                + " rows, so recording cannot change them.";
        TimelineRecorder recorder = new TimelineRecorder(TimelineRecorder.REPORT_CAPACITY);
        runner.restrictTo(List.of(p));
        Job.watch(recorder);
        try {
            runner.run();
        } catch (ExperimentRunner.PointFailedException e) {
            String why = Main.message(e.getCause() == null || e.getCause().getMessage() == null ? e : e.getCause());
            return new PointTimeline(new ReportTimeline(point, null, List.of("No timeline: the point failed when"
                    + " run again to record it: " + why.replace('\n', ' ')), null), null);
        } finally {
            Job.watch(null);
        }
        if (!recorder.attached()) {
            return new PointTimeline(new ReportTimeline(point, null, List.of("No timeline: workload '"
                    + runner.spec().workload().name() + "' builds no job of ranks, so there is nothing to show."),
                    null), null);
        }
        TimelineFigure figure = recorder.figure();
        StringWriter text = new StringWriter();
        try {
            recorder.write(text, title);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a StringWriter does not fail
        }
        return new PointTimeline(new ReportTimeline(point, figure.svg(), figure.notes(), FILE_NAME), text.toString());
    }
}
