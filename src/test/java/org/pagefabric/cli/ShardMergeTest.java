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
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep split with {@code reproduce --shard I/N} and put together with {@code merge} writes
 * the same bytes as one unsharded run: rows, manifest, resolved spec, comparison, plots,
 * reports and index, for several shard counts including more shards than points.
 */
class ShardMergeTest {
    /** Three quick experiments of three seeds: 6 + 2 + 3 points. */
    private static final String[] IDS = {"fh.fig3", "aa.fig7c", "omx.table2"};
    private static final int POINTS = 11;
    /** More shards than any of them has points: most shards run nothing. */
    private static final int MORE_THAN_POINTS = 13;

    @TempDir
    static Path dir;

    @BeforeAll
    static void singleRun() {
        CliTest.Result r = reproduce(dir.resolve("single"));
        assertEquals(0, r.code(), r.err());
    }

    private static CliTest.Result reproduce(Path out, String... more) {
        List<String> args = new ArrayList<>(List.of("reproduce"));
        args.addAll(List.of(IDS));
        args.addAll(List.of("--quick", "--threads", "2", "--out", out.toString()));
        args.addAll(List.of(more));
        return CliTest.run(args.toArray(String[]::new));
    }

    private static Path shardedAndMerged(int n) {
        List<String> merge = new ArrayList<>(List.of("merge"));
        // shards given in reverse: merge orders them by their number, not by the command line
        for (int i = n; i >= 1; i--) {
            Path shard = dir.resolve(n + "-shard-" + i);
            CliTest.Result r = reproduce(shard, "--shard", i + "/" + n);
            assertEquals(0, r.code(), r.err());
            assertTrue(Files.isRegularFile(shard.resolve(ShardManifest.FILE_NAME)));
            merge.add(shard.toString());
        }
        Path merged = dir.resolve(n + "-merged");
        merge.addAll(List.of("--out", merged.toString()));
        CliTest.Result r = CliTest.run(merge.toArray(String[]::new));
        assertEquals(0, r.code(), r.err());
        return merged;
    }

    /** Results, not the point cache a run keeps beside them. */
    private static boolean output(Path relative) {
        return !relative.startsWith(org.pagefabric.experiment.PointCache.DIRECTORY);
    }

    private static void assertSameTree(Path expected, Path actual) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(expected)) {
            files = s.filter(Files::isRegularFile).map(expected::relativize).filter(ShardMergeTest::output).sorted().toList();
        }
        try (Stream<Path> s = Files.walk(actual)) {
            assertEquals(files, s.filter(Files::isRegularFile).map(actual::relativize).filter(ShardMergeTest::output)
                    .sorted().toList());
        }
        for (String id : IDS) {
            for (String f : List.of("rows.csv", "rows.json", "comparison.csv", "manifest.json", "report.html")) {
                assertTrue(files.contains(Path.of(id, f)), id + "/" + f + " is among the files compared");
            }
        }
        for (Path f : files) {
            assertArrayEquals(Files.readAllBytes(expected.resolve(f)), Files.readAllBytes(actual.resolve(f)),
                    f + " differs between one run and the merged shards");
        }
    }

    @Test
    void oneShard() throws IOException {
        assertSameTree(dir.resolve("single"), shardedAndMerged(1));
    }

    @Test
    void twoShards() throws IOException {
        assertSameTree(dir.resolve("single"), shardedAndMerged(2));
    }

    @Test
    void threeShards() throws IOException {
        assertSameTree(dir.resolve("single"), shardedAndMerged(3));
    }

    @Test
    void moreShardsThanPoints() throws IOException {
        Path merged = shardedAndMerged(MORE_THAN_POINTS);
        // the sweep's points are dealt together, each to the least-loaded shard: while a shard is
        // empty, no point goes to a shard that already has one
        for (int i = 1; i <= MORE_THAN_POINTS; i++) {
            ShardManifest m = ShardManifest.read(dir.resolve(MORE_THAN_POINTS + "-shard-" + i));
            int points = m.experiments().stream().mapToInt(e -> e.indices().size()).sum();
            assertEquals(i <= POINTS ? 1 : 0, points, "shard " + i + "/" + MORE_THAN_POINTS + ": " + m.experiments());
        }
        assertSameTree(dir.resolve("single"), merged);
    }

    @Test
    void aMergeWithAShardThatStoppedEarlyWritesWhatThereIsAndExits3() throws IOException {
        Path one = dir.resolve("stopped-shard-1");
        Path two = dir.resolve("stopped-shard-2");
        assertEquals(0, reproduce(one, "--shard", "1/2").code());
        assertEquals(0, reproduce(two, "--shard", "2/2").code());
        // what a shard stopped by a signal records for the experiment it was running
        Path manifest = two.resolve(ShardManifest.FILE_NAME);
        String json = Files.readString(manifest);
        String stopped = json.replaceFirst("\"complete\"\\s*:\\s*true", "\"complete\" : false");
        assertTrue(!stopped.equals(json), json);
        Files.writeString(manifest, stopped);
        Path merged = dir.resolve("stopped-merged");
        CliTest.Result r = CliTest.run("merge", one.toString(), two.toString(), "--out", merged.toString());
        assertEquals(3, r.code(), "a partial sweep is not a success: " + r.err());
        assertTrue(r.err().contains("some shards stopped early: rows are missing"), r.err());
        assertTrue(Files.isRegularFile(merged.resolve("index.html")), "what there is was merged");
    }

    @Test
    void aShardWithNoPointIsStillAShardDirectory() throws IOException {
        Path shard = dir.resolve("empty-shard");
        CliTest.Result r = reproduce(shard, "--shard", MORE_THAN_POINTS + "/" + MORE_THAN_POINTS);
        assertEquals(0, r.code(), r.err());
        assertTrue(r.err().contains("ran 0 of " + POINTS + " points"), r.err());
        ShardManifest m = ShardManifest.read(shard);
        for (ShardManifest.Entry e : m.experiments()) {
            assertTrue(e.indices().isEmpty());
            assertTrue(e.complete());
            assertTrue(Files.isRegularFile(shard.resolve(e.id()).resolve("rows.json")));
        }
    }

    @Test
    void badShardValuesAreOneLineExit2() {
        for (String bad : List.of("0/2", "3/2", "x", "1/0")) {
            CliTest.Result r = CliTest.run("reproduce", "part.fig7", "--quick", "--shard", bad,
                    "--out", dir.resolve("bad").toString());
            assertEquals(2, r.code(), bad);
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().contains("--shard '" + bad + "'"), r.err());
        }
        assertFalse(Files.exists(dir.resolve("bad")), "nothing ran");
    }

    @Test
    void mergeRefusesAnIncompleteSetOfShards() {
        Path one = dir.resolve("lone-1");
        assertEquals(0, CliTest.run("reproduce", "omx.table2", "--quick", "--shard", "1/2", "--out", one.toString())
                .code());
        CliTest.Result r = CliTest.run("merge", one.toString(), "--out", dir.resolve("lone-merged").toString());
        assertEquals(2, r.code());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        assertTrue(r.err().contains("shards missing: 2/2"), r.err());
        CliTest.Result twice = CliTest.run("merge", one.toString(), one.toString(), "--out",
                dir.resolve("lone-merged").toString());
        assertEquals(2, twice.code());
        assertTrue(twice.err().contains("given twice"), twice.err());
        CliTest.Result notShard = CliTest.run("merge", dir.resolve("single").toString(), "--out",
                dir.resolve("lone-merged").toString());
        assertEquals(2, notShard.code());
        assertTrue(notShard.err().contains("not a shard directory"), notShard.err());
    }
}
