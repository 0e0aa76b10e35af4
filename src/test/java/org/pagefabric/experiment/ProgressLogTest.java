package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A progress log prints at most one line a minute between experiments, and estimates the time left from costs. */
class ProgressLogTest {
    private static final long S = 1_000_000_000L;

    private static final class ManualClock implements ProgressLog.Clock {
        long wall;
        long cpu;

        @Override
        public long wallNanos() {
            return wall;
        }

        @Override
        public long cpuNanos() {
            return cpu;
        }
    }

    @Test
    void linesAtMostAMinuteApartAndOnePerExperiment() {
        ManualClock c = new ManualClock();
        StringWriter out = new StringWriter();
        ProgressLog log = new ProgressLog(new PrintWriter(out), "reproduce: ", c);
        log.start(10, 100.0);
        c.wall = 30 * S;
        log.tick(0, 0);                 // 30 s: too soon
        c.wall = 60 * S;
        c.cpu = 110 * S;
        log.tick(0, 0);                 // a minute: a line, nothing to estimate from yet
        c.wall = 100 * S;
        log.tick(2, 20);                // 40 s after the last line: none
        c.wall = 120 * S;
        c.cpu = 230 * S;
        log.experimentDone("x.one", 4, 25); // a finished experiment always gets its line
        c.wall = 150 * S;
        log.tick(4, 25);                // 30 s after the last line: none
        c.wall = 180 * S;
        log.tick(5, 50);                // a minute after: 180 s for 50 of 100, so 180 s left
        c.wall = 900 * S;
        log.experimentDone("x.two", 10, 100);
        assertEquals(List.of(
                "reproduce: 0 of 10 points, 110 CPU s, time left not estimated yet",
                "reproduce: x.one written; 4 of 10 points, 230 CPU s, about 6 min left",
                "reproduce: 5 of 10 points, 230 CPU s, about 3 min left",
                "reproduce: x.two written; 10 of 10 points, 230 CPU s, none left"), out.toString().lines().toList());
    }
}
