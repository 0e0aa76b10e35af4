package org.pagefabric.experiment;

import java.time.Duration;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * A progress bar over finished points that appears only on a console and only once the run
 * has taken {@link #DELAY}, so that short runs and redirected output stay quiet.
 */
final class DelayedProgress {
    /** Wall time after which the bar appears. */
    static final Duration DELAY = Duration.ofSeconds(2);

    private final String task;
    private final int total;
    private final boolean shown;
    private final long start = System.nanoTime();
    private ProgressBar bar;

    /**
     * @param task    what the bar names
     * @param total   points to finish
     * @param allowed whether the caller allows a bar at all
     */
    DelayedProgress(String task, int total, boolean allowed) {
        this.task = task;
        this.total = total;
        this.shown = allowed && System.console() != null;
    }

    /** Shows {@code done} points finished, opening the bar if it is time. */
    void update(int done) {
        long elapsed = System.nanoTime() - start;
        if (bar == null && shown && elapsed >= DELAY.toNanos() && done < total) {
            bar = new ProgressBarBuilder().setTaskName(task).setInitialMax(total)
                    .setStyle(ProgressBarStyle.ASCII).setUpdateIntervalMillis(500)
                    .startsFrom(done, Duration.ofNanos(elapsed)).build();
        }
        if (bar != null) {
            bar.stepTo(done);
        }
    }

    /** Shows the final count and closes the bar, if one was opened. */
    void finish(int done) {
        if (bar != null) {
            bar.stepTo(done);
            bar.close();
        }
    }
}
