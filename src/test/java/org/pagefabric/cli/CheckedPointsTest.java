package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pagefabric.experiment.PointCache;

/**
 * A point file under {@code --out/.points} is read back only if it is the one {@code reproduce}
 * wrote: an edit that still parses, a truncation or another point's file is said in one line, and
 * its point runs again, so the published rows are what the simulation computed.
 */
class CheckedPointsTest {
    @TempDir
    Path dir;

    private CliTest.Result reproduce(Path out) {
        return CliTest.run("reproduce", "part.fig7", "--quick", "--format", "csv", "--out", out.toString());
    }

    private static List<Path> points(Path out) throws IOException {
        try (Stream<Path> s = Files.list(out.resolve(PointCache.DIRECTORY))) {
            return s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
    }

    /** The file's first non-zero latency with one digit changed, still valid JSON. */
    private static String editOneDigit(String json) {
        Matcher m = Pattern.compile("\\[ \"latency_us\", \"double\", \"([0-9.]+)\" \\]").matcher(json);
        assertTrue(m.find(), json);
        String v = m.group(1);
        String edited = (v.charAt(0) == '9' ? '1' : (char) (v.charAt(0) + 1)) + v.substring(1);
        return json.substring(0, m.start(1)) + edited + json.substring(m.end(1));
    }

    @Test
    void anEditedTruncatedOrForeignPointFileIsSaidAndRunAgain() throws IOException {
        Path out = dir.resolve("out");
        CliTest.Result first = reproduce(out);
        assertEquals(0, first.code(), first.err());
        String rows = Files.readString(out.resolve("part.fig7/rows.csv"));
        List<Path> files = points(out);
        assertTrue(files.size() >= 3, "part.fig7 quick grid has points: " + files);

        Path edited = files.get(0);
        Files.writeString(edited, editOneDigit(Files.readString(edited)));
        CliTest.Result afterEdit = reproduce(out);
        assertEquals(0, afterEdit.code(), afterEdit.err());
        assertEquals(1, afterEdit.err().lines().filter(l -> l.contains(edited.getFileName().toString())).count(),
                afterEdit.err());
        assertTrue(afterEdit.err().contains("does not match its digest"), afterEdit.err());
        assertEquals(rows, Files.readString(out.resolve("part.fig7/rows.csv")), "the edited number is not published");
        assertEquals(first.out(), afterEdit.out());

        Path truncated = files.get(1);
        String whole = Files.readString(truncated);
        Files.writeString(truncated, whole.substring(0, whole.length() / 2));
        Path foreign = files.get(2);
        Files.copy(files.get(0), foreign, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        CliTest.Result afterDamage = reproduce(out);
        assertEquals(0, afterDamage.code(), afterDamage.err());
        List<String> said = afterDamage.err().lines().filter(l -> l.contains("ran again")).toList();
        assertEquals(1, said.size(), afterDamage.err());
        assertTrue(said.getFirst().contains("2 point files") && said.getFirst().contains("not whole JSON")
                && said.getFirst().contains("foreign"), said.getFirst());
        assertEquals(rows, Files.readString(out.resolve("part.fig7/rows.csv")));

        CliTest.Result clean = reproduce(out);
        assertFalse(clean.err().contains("ran again"), "re-run points were stored whole: " + clean.err());
        assertTrue(clean.err().contains(files.size() + " finished points read back"), clean.err());
    }
}
