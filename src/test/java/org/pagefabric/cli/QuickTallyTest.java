package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An experiment whose published numbers are all compared only at full size says so in a quick
 * run, with how many a full run compares, instead of "0 of 0" as if it checked nothing.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class QuickTallyTest {
    @Test
    void aQuickRunThatComparesNoneSaysWhatAFullRunCompares(@TempDir Path dir) throws Exception {
        // aa.fig6a publishes one value and withholds one; its quick grid leaves the paper's set-up out
        CliTest.Result r = CliTest.run("reproduce", "aa.fig6a", "--quick", "--out", dir.toString());
        assertEquals(0, r.code(), r.err());
        String expected = "none compared in a quick run (1 compared in a full run); apart: 1 withheld,"
                + " 1 not comparable, 0 calibration targets";
        assertTrue(r.err().contains("published numbers: " + expected), r.err());
        String report = Files.readString(dir.resolve("aa.fig6a").resolve("report.html"));
        assertTrue(report.contains("<p class=\"tally\">Published numbers: " + expected + "</p>"), report);
        assertFalse(report.contains("0 of 0"), report);
        assertFalse(r.err().contains("0 of 0"), r.err());
    }
}
