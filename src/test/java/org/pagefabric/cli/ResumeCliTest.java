package org.pagefabric.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pagefabric.experiment.PointCache;

/**
 * {@code reproduce} runs every selected experiment's points in one pool whose thread count
 * changes no output, and keeps every finished point under {@code --out/.points}: a re-run or
 * {@code --resume} reads them back and writes the same bytes as a run that computed them, for
 * experiments of several seeds (their rows carry longs, doubles, booleans, strings and empty cells).
 */
class ResumeCliTest {
    private static final String[] IDS = {"fh.fig3", "part.fig7", "omx.table1", "aa.fig1"};

    @TempDir
    Path dir;

    private static CliTest.Result reproduce(Path out, String... more) {
        List<String> args = new ArrayList<>(List.of("reproduce"));
        args.addAll(List.of(IDS));
        args.addAll(List.of("--quick", "--format", "csv", "--out", out.toString()));
        args.addAll(List.of(more));
        return CliTest.run(args.toArray(String[]::new));
    }

    @Test
    void aResumedRunWritesWhatAnUncachedRunWrites() throws IOException {
        CliTest.Result plain = reproduce(dir.resolve("plain"), "--no-cache", "--threads", "2");
        assertEquals(0, plain.code(), plain.err());
        // one pool over the four experiments: the thread count changes neither a byte nor the order of lines
        CliTest.Result one = reproduce(dir.resolve("one"), "--no-cache", "--threads", "1");
        assertEquals(plain.out(), one.out());
        assertEquals(plain.err().replace(dir.resolve("plain").toString(), "OUT"),
                one.err().replace(dir.resolve("one").toString(), "OUT"));
        assertSameFiles(dir.resolve("plain"), dir.resolve("one"));
        assertFalse(Files.exists(dir.resolve("plain").resolve(PointCache.DIRECTORY)), "--no-cache stores nothing");

        Path out = dir.resolve("cached");
        CliTest.Result first = reproduce(out, "--threads", "2");
        assertEquals(0, first.code(), first.err());
        assertFalse(first.err().contains("read back"), first.err());
        // a lost node: some points never finished, so their files are missing
        List<Path> points;
        try (Stream<Path> s = Files.list(out.resolve(PointCache.DIRECTORY))) {
            points = s.sorted().toList();
        }
        for (int i = 0; i < points.size(); i += 3) {
            Files.delete(points.get(i));
        }
        int kept = points.size() - (points.size() + 2) / 3;
        CliTest.Result resumed = reproduce(out, "--resume", "--threads", "2");
        assertEquals(0, resumed.code(), resumed.err());
        assertTrue(resumed.err().contains("reproduce: " + kept + " finished points read back from "), resumed.err());
        assertEquals(plain.out(), resumed.out());
        assertSameFiles(dir.resolve("plain"), out);
    }

    @Test
    void resumeAndNoCacheTogetherAreAUsageError() {
        CliTest.Result r = CliTest.run("reproduce", "part.fig7", "--quick", "--resume", "--no-cache",
                "--out", dir.toString());
        assertEquals(ExitCodes.USAGE, r.code());
        assertTrue(r.err().startsWith("pagefabric reproduce: --resume and --no-cache contradict each other"), r.err());
    }

    private static void assertSameFiles(Path expected, Path actual) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(expected)) {
            files = s.filter(Files::isRegularFile).map(expected::relativize).sorted().toList();
        }
        try (Stream<Path> s = Files.walk(actual)) {
            assertEquals(files, s.filter(Files::isRegularFile).map(actual::relativize)
                    .filter(p -> !p.startsWith(PointCache.DIRECTORY)).sorted().toList());
        }
        for (String id : IDS) {
            assertTrue(files.contains(Path.of(id, "rows.csv")), id);
        }
        for (Path f : files) {
            assertArrayEquals(Files.readAllBytes(expected.resolve(f)), Files.readAllBytes(actual.resolve(f)),
                    f + " differs between an uncached and a resumed run");
        }
    }
}
