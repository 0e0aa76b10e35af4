package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pagefabric.experiment.ProgressLog;
import picocli.CommandLine;

/**
 * {@code reproduce} with standard error going to a file prints a progress line per written
 * experiment and, in between, at most one a minute; on a terminal (and embedded) it prints none.
 */
class ProgressLinesCliTest {
    @TempDir
    Path dir;

    /** Every read of the wall clock is 61 s after the last, and each of the CPU clock 3 s: every tick may print. */
    private static final class FastClock implements ProgressLog.Clock {
        long wall;
        long cpu;

        @Override
        public long wallNanos() {
            return wall += 61_000_000_000L;
        }

        @Override
        public long cpuNanos() {
            return cpu += 3_000_000_000L;
        }
    }

    private static CliTest.Result reproduce(ProgressLog.Clock clock, Path out) {
        CommandLine cl = Main.commandLine(clock);
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        cl.setOut(new PrintWriter(o));
        cl.setErr(new PrintWriter(e));
        int code = cl.execute("reproduce", "part.fig7", "omx.table1", "--quick", "--no-cache", "--threads", "1",
                "--format", "csv", "--out", out.toString());
        return new CliTest.Result(code, o.toString(), e.toString());
    }

    @Test
    void aLogFileGetsOneLinePerExperimentWithPointsCpuAndTimeLeft() {
        CliTest.Result r = reproduce(new FastClock(), dir.resolve("log"));
        assertEquals(0, r.code(), r.err());
        List<String> written = r.err().lines().filter(l -> l.matches("reproduce: \\S+ written; .*")).toList();
        assertEquals(2, written.size(), r.err());
        assertTrue(written.stream().anyMatch(l -> l.startsWith("reproduce: part.fig7 written; ")), r.err());
        assertTrue(written.stream().anyMatch(l -> l.startsWith("reproduce: omx.table1 written; ")), r.err());
        String last = written.get(1);
        assertTrue(last.matches("reproduce: \\S+ written; (\\d+) of \\1 points, \\d+ CPU s, none left"), last);
        // in between, if a point took long enough for the pool to look, lines without an experiment
        // (how often: ProgressLogTest), each with what is done and what is left
        List<String> ticks = r.err().lines().filter(l -> l.matches("reproduce: \\d+ of .*")).toList();
        assertTrue(ticks.stream().allMatch(l -> l.matches("reproduce: \\d+ of \\d+ points, \\d+ CPU s, "
                + "(about (\\d+ h )?\\d+ (s|min) left|none left|time left not estimated yet)")), r.err());
    }

    @Test
    void aTerminalOrAnEmbeddedRunGetsNoLines() {
        CliTest.Result r = reproduce(null, dir.resolve("quiet"));
        assertEquals(0, r.code(), r.err());
        assertFalse(r.err().contains(" points, "), r.err());
    }
}
