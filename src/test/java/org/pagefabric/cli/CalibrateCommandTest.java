package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pagefabric calibrate} end to end: the table, the profile, a run on it, and bad options. */
class CalibrateCommandTest {
    @TempDir
    Path dir;

    @Test
    void calibratesWritesAProfileAndTheProfileDrivesARun() throws Exception {
        Assumptions.assumeTrue(System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("linux"));
        Path file = dir.resolve("sub/host.yaml");
        CliTest.Result r = CliTest.run("calibrate", "--quick", "--repetitions", "3", "--out", file.toString());
        assertEquals(0, r.code(), r.err() + r.out());
        assertTrue(r.out().contains("probe") && r.out().contains("median") && r.out().contains("runs"), r.out());
        assertTrue(r.out().contains("first touch (minor fault) per page"), r.out());
        assertTrue(r.out().contains("wrote " + file), r.out());
        String yaml = Files.readString(file);
        assertTrue(yaml.contains("extends: default"), yaml);
        assertTrue(yaml.contains("os.page_fault.minor: {value: "), yaml);
        assertTrue(yaml.contains("source: \"measured: on "), yaml);

        CliTest.Result run = CliTest.run("run", "latency", "--profile", file.toString(), "--sizes", "8,4K",
                "--iterations", "2", "--format", "csv");
        assertEquals(0, run.code(), run.err());
        assertTrue(run.out().contains("true") && !run.out().contains("false"), "verified rows:\n" + run.out());
    }

    @Test
    void badOptionsAreUsageErrorsInOneLine() {
        for (String[] args : new String[][] {{"calibrate", "--repetitions", "0"}, {"calibrate", "--repetitions", "x"},
                {"calibrate", "--out", dir.toString()}, {"calibrate", "--bogus"}}) {
            CliTest.Result r = CliTest.run(args);
            assertEquals(2, r.code(), String.join(" ", args) + ": " + r.err());
            assertEquals("", r.out(), "no output before the refusal");
            assertFalse(r.err().contains("\tat "), "no stack trace");
        }
        assertTrue(CliTest.run("calibrate", "--repetitions", "0").err().contains("--repetitions: 0"));
        assertTrue(CliTest.run("calibrate", "--out", dir.toString()).err().contains("is a directory"));
    }

    @Test
    void anOutThatCannotBeWrittenIsNamedInOneLineBeforeMeasuring() throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        for (String[] bad : new String[][] {{file.resolve("host.yaml").toString(), "is not a directory"},
                {"/dev/full", "not a regular file"}, {"", "empty path"},
                // as root every file is writable: a mistyped path must not replace, say, /etc/hostname
                {file.toString(), "exists and was not written by '# Written by pagefabric calibrate'"}}) {
            CliTest.Result r = CliTest.run("calibrate", "--quick", "--out", bad[0]);
            assertEquals(2, r.code(), r.err());
            assertEquals("", r.out(), "refused before measuring");
            java.util.List<String> lines = r.err().lines().toList();
            assertEquals(2, lines.size(), r.err());
            assertTrue(lines.get(0).startsWith("pagefabric calibrate: --out") && lines.get(0).contains(bad[1]), r.err());
        }
        assertEquals("x", Files.readString(file));
    }
}
