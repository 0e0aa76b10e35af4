package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Finished points come back from the cache exactly as they were computed, only the points that
 * did not finish (or whose inputs changed) run again, and a damaged file only costs a re-run.
 */
class PointCacheTest {
    /** 3 sizes × 2 repetitions of a real simulation: small, but with every column type a row has. */
    private static final String SIX = """
            id: test.six
            title: Six points
            workload: latency
            policies: [pin-all]
            seed: 11
            repetitions: 2
            grid:
              size_B: [8, 512, 4096]
              iterations: 2
              link.loss: "0"
            metrics: [latency_us, bandwidth_MBps]
            """;

    @TempDir
    Path dir;

    /** A runner whose points run the real simulation and are counted: the seam that tells hits from runs. */
    private static ExperimentRunner counted(ExperimentSpec spec, Map<String, String> sets, AtomicInteger runs,
                                            int stopAfter) {
        ExperimentRunner.Options o = new ExperimentRunner.Options(1, false, false, sets);
        ExperimentRunner real = new ExperimentRunner(spec, o);
        ExperimentRunner[] self = new ExperimentRunner[1];
        self[0] = new ExperimentRunner(spec, o, p -> {
            if (runs.incrementAndGet() == stopAfter) {
                self[0].cancel();
            }
            return real.row(p);
        });
        return self[0];
    }

    private ExperimentResult cached(ExperimentSpec spec, Map<String, String> sets, AtomicInteger runs) {
        ExperimentRunner r = counted(spec, sets, runs, -1);
        r.useCache(PointCache.under(dir));
        return r.run();
    }

    @Test
    void aResumedRunRunsOnlyTheMissingPointsAndWritesTheSameBytes() {
        ExperimentSpec spec = Specs.parse(SIX);
        ExperimentResult uncached = ExperimentRunner.run(spec, new ExperimentRunner.Options(2, false, false, Map.of()));

        // stopped after its second point, as Ctrl-C or a kill would stop it
        AtomicInteger first = new AtomicInteger();
        ExperimentRunner partial = counted(spec, Map.of(), first, 2);
        partial.useCache(PointCache.under(dir));
        ExperimentResult stopped = partial.run();
        assertFalse(stopped.complete());
        assertEquals(2, stopped.rows().size());

        AtomicInteger second = new AtomicInteger();
        ExperimentResult resumed = cached(spec, Map.of(), second);
        assertEquals(4, second.get(), "only the 4 points the stopped run did not finish run again");
        assertTrue(resumed.complete());
        assertEquals(ResultWriter.csv(uncached.rows()), ResultWriter.csv(resumed.rows()));
        assertEquals(ResultWriter.json(uncached.rows()), ResultWriter.json(resumed.rows()));
        assertEquals(uncached.rows(), resumed.rows());
        for (int i = 0; i < uncached.rows().size(); i++) {
            for (String col : uncached.rows().get(i).keySet()) {
                Object want = uncached.rows().get(i).get(col);
                Object got = resumed.rows().get(i).get(col);
                assertEquals(want == null ? null : want.getClass(), got == null ? null : got.getClass(), col);
            }
        }

        AtomicInteger third = new AtomicInteger();
        assertEquals(uncached.rows(), cached(spec, Map.of(), third).rows());
        assertEquals(0, third.get(), "a finished run runs nothing again");
    }

    @Test
    void aSetValueInvalidatesExactlyThePointsItChanges() {
        ExperimentSpec spec = Specs.parse(SIX);
        AtomicInteger runs = new AtomicInteger();
        cached(spec, Map.of(), runs);
        assertEquals(6, runs.get());

        // a third repetition: the first two of every grid point are the same points as before
        runs.set(0);
        ExperimentResult three = cached(spec, Map.of("repetitions", "3"), runs);
        assertEquals(3, runs.get());
        assertEquals(9, three.rows().size());

        for (Map<String, String> set : List.of(Map.of("iterations", "3"), Map.of("link.loss", "0.01"),
                Map.of("seed", "12"))) {
            runs.set(0);
            ExperimentResult changed = cached(spec, set, runs);
            assertEquals(6, runs.get(), set + " changes every point");
            ExperimentResult direct = ExperimentRunner.run(spec, new ExperimentRunner.Options(1, false, false, set));
            assertEquals(ResultWriter.csv(direct.rows()), ResultWriter.csv(changed.rows()));
        }
    }

    @Test
    void aPointsFileSaysWhatItTookBesideTheEstimateThatOrderedIt() throws IOException {
        ExperimentSpec spec = Specs.parse(SIX);
        ExperimentRunner r = new ExperimentRunner(spec, new ExperimentRunner.Options(1, false, false, Map.of()));
        r.useCache(PointCache.under(dir));
        r.run();
        for (Path f : pointFiles()) {
            Map<?, ?> file = new com.fasterxml.jackson.databind.ObjectMapper().readValue(f.toFile(), Map.class);
            assertTrue(((Number) file.get("cpu_s")).doubleValue() >= 0, f + ": " + file.get("cpu_s"));
            assertTrue(((Number) file.get("wall_s")).doubleValue() >= 0, f + ": " + file.get("wall_s"));
            // estimated CPU seconds: 2 ranks × 2 iterations × pages of the size (8 B, 512 B and 4 KiB are
            // one page each) × the workload's coefficient
            assertEquals(4.0 * CostModel.bundled().coefficient(spec.workload().name()),
                    ((Number) file.get("estimated_cost")).doubleValue(), 1e-15, f.toString());
        }
    }

    @Test
    void aDamagedFileIsRunAgainAndRewritten() throws IOException {
        ExperimentSpec spec = Specs.parse(SIX);
        AtomicInteger runs = new AtomicInteger();
        ExperimentResult first = cached(spec, Map.of(), runs);
        List<Path> files = pointFiles();
        assertEquals(6, files.size());
        Files.writeString(files.get(0), "{\"format\": 1, \"key\": \"");
        Files.writeString(files.get(1), "not json at all");
        String text = Files.readString(files.get(2));
        Files.writeString(files.get(2), text.replace("\"long\"", "\"no-such-type\""));
        String other = Files.readString(files.get(3));
        Files.writeString(files.get(3), other.replaceFirst("\"key\" : \"[0-9a-f]+\"", "\"key\" : \"0\""));

        runs.set(0);
        ExperimentResult again = cached(spec, Map.of(), runs);
        assertEquals(4, runs.get());
        assertEquals(first.rows(), again.rows());
        runs.set(0);
        cached(spec, Map.of(), runs);
        assertEquals(0, runs.get(), "the damaged files were written again");
    }

    @Test
    void keysDifferByEveryInputAndNotByTheThreadCount() {
        ExperimentSpec spec = Specs.parse(SIX);
        List<ExperimentPoint> a = new ExperimentRunner(spec, new ExperimentRunner.Options(1, false, false, Map.of())).points();
        ExperimentRunner eight = new ExperimentRunner(spec, new ExperimentRunner.Options(8, false, false, Map.of()));
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < a.size(); i++) {
            String k = PointCache.key(new ExperimentRunner(spec, new ExperimentRunner.Options(1, false, false, Map.of()))
                    .spec(), a.get(i));
            assertEquals(k, PointCache.key(eight.spec(), eight.points().get(i)));
            assertFalse(keys.contains(k));
            keys.add(k);
        }
        ExperimentSpec renamed = Specs.parse(SIX.replace("test.six", "test.other"));
        ExperimentRunner other = new ExperimentRunner(renamed, new ExperimentRunner.Options(1, false, false, Map.of()));
        assertNotEquals(keys.get(0), PointCache.key(other.spec(), other.points().get(0)));
    }

    @Test
    void theCodecKeepsTypesAndExactValues() {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("s", "a,b \"c\"\n");
        row.put("empty", "");
        row.put("l", 8L);
        row.put("i", 8);
        row.put("d", 8.0);
        row.put("tiny", 4.9e-324);
        row.put("third", 1.0 / 3);
        row.put("negzero", -0.0);
        row.put("nan", Double.NaN);
        row.put("inf", Double.NEGATIVE_INFINITY);
        row.put("f", 0.1f);
        row.put("b", true);
        row.put("n", null);
        row.put("big", new java.math.BigDecimal("1.50"));
        Map<String, Object> back = RowCodec.decode(RowCodec.encode(row));
        assertEquals(List.copyOf(row.keySet()), List.copyOf(back.keySet()));
        row.forEach((k, v) -> {
            assertEquals(v, back.get(k), k);
            if (v != null) {
                assertEquals(v.getClass(), back.get(k).getClass(), k);
            }
        });
        assertEquals(null, RowCodec.encode(Map.of("list", List.of(1))), "a type it cannot carry is not stored");
    }

    private List<Path> pointFiles() throws IOException {
        try (Stream<Path> s = Files.list(dir.resolve(PointCache.DIRECTORY))) {
            return s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
    }
}
