package org.pagefabric.experiment;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Locale;

/**
 * Progress as plain lines, for a run whose standard error is a file (a Slurm log, {@code nohup}):
 * one line as each experiment is written, and one at most every {@link #INTERVAL} in between,
 * each saying how many points are done of how many, the CPU seconds the process has spent, and
 * the time left estimated from the points' estimated costs. A bar would fill such a file with
 * carriage returns; silence would leave an hour-long run unreadable.
 */
public final class ProgressLog {
    /** Longest wall time between two lines while no experiment finishes. */
    public static final Duration INTERVAL = Duration.ofMinutes(1);

    /** The clocks a log reads: wall time and the process's CPU time, both in nanoseconds. */
    public interface Clock {
        /** A monotonic wall time. */
        long wallNanos();

        /** CPU time the process has used (all threads). */
        long cpuNanos();
    }

    /** The process's own clocks. */
    public static final Clock SYSTEM = new Clock() {
        @Override
        public long wallNanos() {
            return System.nanoTime();
        }

        @Override
        public long cpuNanos() {
            return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                    ? Math.max(0, os.getProcessCpuTime()) : 0;
        }
    };

    private final PrintWriter out;
    private final String prefix;
    private final Clock clock;
    private long startWall;
    private long startCpu;
    private long lastLine;
    private int total;
    private double totalCost;

    /**
     * @param out    where the lines go (standard error)
     * @param prefix what each line starts with, e.g. {@code "reproduce: "}
     * @param clock  the clocks to read
     */
    public ProgressLog(PrintWriter out, String prefix, Clock clock) {
        this.out = out;
        this.prefix = prefix;
        this.clock = clock;
    }

    /**
     * Starts the clocks for a run of {@code total} points whose points still to compute are
     * estimated at {@code costToRun} CPU seconds in all.
     */
    void start(int total, double costToRun) {
        this.total = total;
        this.totalCost = costToRun;
        startWall = clock.wallNanos();
        startCpu = clock.cpuNanos();
        lastLine = startWall;
    }

    /** Experiment {@code id} has been written; {@code done} points are finished, {@code doneCost} of the estimate. */
    void experimentDone(String id, int done, double doneCost) {
        line(id + " written; ", done, doneCost);
    }

    /** A line if none was printed for {@link #INTERVAL}. */
    void tick(int done, double doneCost) {
        if (clock.wallNanos() - lastLine >= INTERVAL.toNanos()) {
            line("", done, doneCost);
        }
    }

    private void line(String what, int done, double doneCost) {
        long wall = clock.wallNanos();
        lastLine = wall;
        long cpuS = Math.round((clock.cpuNanos() - startCpu) / 1e9);
        out.println(prefix + what + done + " of " + total + " points, " + cpuS + " CPU s, " + left(wall, done, doneCost));
        out.flush();
    }

    /** The time left: the wall time so far scaled by the estimated cost still to run over that already run. */
    private String left(long wall, int done, double doneCost) {
        if (done >= total) {
            return "none left";
        }
        if (doneCost <= 0) {
            return "time left not estimated yet";
        }
        double seconds = (wall - startWall) / 1e9 * Math.max(0, totalCost - doneCost) / doneCost;
        return "about " + duration(seconds) + " left";
    }

    private static String duration(double seconds) {
        long s = Math.round(seconds);
        if (s < 120) {
            return s + " s";
        }
        long min = Math.round(seconds / 60);
        return min < 120 ? min + " min" : String.format(Locale.ROOT, "%d h %02d min", min / 60, min % 60);
    }
}
