package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The pool runs the largest points first, never lets the running points' estimated footprints
 * exceed its budget (a point larger than the budget runs alone), hands every experiment over as
 * soon as it is done, and gives rows that do not depend on the thread count.
 */
class PointPoolTest {
    private static final PointPool.Estimates BY_SIZE = new PointPool.Estimates() {
        @Override
        public double cost(ExperimentSpec spec, ExperimentPoint p) {
            return size(p);
        }

        @Override
        public long footprint(ExperimentSpec spec, ExperimentPoint p) {
            return size(p);
        }
    };

    private static long size(ExperimentPoint p) {
        return ((Number) p.workloadValues().get("size_B")).longValue();
    }

    private static ExperimentRunner fake(String id, ExperimentRunner.PointFunction f) {
        return new ExperimentRunner(Specs.parse(Specs.MANY.replace("test.many", id)),
                new ExperimentRunner.Options(1, false, false, Map.of()), f);
    }

    @Test
    void theLargestPointsStartFirstAcrossExperiments() {
        List<String> started = Collections.synchronizedList(new ArrayList<>());
        List<ExperimentRunner> runners = new ArrayList<>();
        for (String id : List.of("test.a", "test.b")) {
            runners.add(fake(id, p -> {
                started.add(id + ":" + size(p) + ":" + p.repetition());
                return Map.of("point", p.index());
            }));
        }
        new PointPool(runners, 1, Long.MAX_VALUE, BY_SIZE).run(false, (k, r, ran) -> { });
        // one thread: strictly by cost, ties by experiment then run index
        assertEquals(List.of("test.a:16384:0", "test.a:16384:1", "test.b:16384:0", "test.b:16384:1", "test.a:8192:0"),
                started.subList(0, 5));
        assertEquals("test.b:8:1", started.get(started.size() - 1));
    }

    @Test
    void inRunOrderThePointsStartAsNumberedWithinTheBudget() {
        List<String> started = Collections.synchronizedList(new ArrayList<>());
        AtomicLong inUse = new AtomicLong();
        AtomicLong peak = new AtomicLong();
        ExperimentRunner r = fake("test.a", p -> {
            started.add(p.index() + ":" + size(p));
            peak.accumulateAndGet(inUse.addAndGet(size(p)), Math::max);
            try {
                Thread.sleep(2);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            inUse.addAndGet(-size(p));
            return Map.of("point", p.index());
        });
        new PointPool(List.of(r), 1, Long.MAX_VALUE, BY_SIZE, PointPool.Order.RUN_ORDER, "test.a")
                .run(false, (k, res, ran) -> { });
        List<String> expected = r.points().stream().map(p -> p.index() + ":" + size(p)).toList();
        assertEquals(expected, started, "one thread: strictly the run order, whatever the sizes");

        long budget = 20_000;
        new PointPool(List.of(r), 4, budget, BY_SIZE, PointPool.Order.RUN_ORDER, "test.a")
                .run(false, (k, res, ran) -> { });
        assertTrue(peak.get() <= budget, "four threads in run order still within the budget: " + peak.get());
    }

    @Test
    void aRunnersOwnRunGoesThroughThePoolAndCanBeCancelled() {
        ExperimentRunner[] holder = new ExperimentRunner[1];
        holder[0] = fake("test.a", p -> {
            if (p.index() == 1) {
                holder[0].cancel();
            }
            return Map.of("point", p.index());
        });
        ExperimentResult result = holder[0].run();
        assertFalse(result.complete());
        assertEquals(2, result.rows().size(), "the point in flight finishes, no new one starts");
        assertEquals(2, holder[0].finished());
    }

    @Test
    void theRunningFootprintsNeverExceedTheBudget() {
        long budget = 20_000;
        AtomicLong inUse = new AtomicLong();
        AtomicLong peak = new AtomicLong();
        List<ExperimentRunner> runners = new ArrayList<>();
        for (String id : List.of("test.a", "test.b", "test.c")) {
            runners.add(fake(id, p -> {
                long now = inUse.addAndGet(size(p));
                peak.accumulateAndGet(now, Math::max);
                try {
                    Thread.sleep(size(p) >= 4096 ? 20 : 2);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                inUse.addAndGet(-size(p));
                return Map.of("point", p.index());
            }));
        }
        PointPool pool = new PointPool(runners, 8, budget, BY_SIZE);
        List<Integer> handed = new ArrayList<>();
        pool.run(false, (k, r, ran) -> {
            assertTrue(r.complete());
            assertEquals(24, r.rows().size());
            handed.add(k);
        });
        assertEquals(3, handed.size());
        assertTrue(peak.get() <= budget, "peak " + peak.get() + " over the budget " + budget);
        assertTrue(pool.peakAdmitted() <= budget);
        // with 8 threads and room for more than one point, points did run side by side
        assertTrue(peak.get() > 16384, "peak " + peak.get());
    }

    @Test
    void aPointLargerThanTheBudgetRunsAlone() {
        AtomicLong running = new AtomicLong();
        List<Long> alongsideBig = Collections.synchronizedList(new ArrayList<>());
        ExperimentRunner r = fake("test.a", p -> {
            long now = running.incrementAndGet();
            if (size(p) == 16384) {
                alongsideBig.add(now);
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            running.decrementAndGet();
            return Map.of("point", p.index());
        });
        PointPool pool = new PointPool(List.of(r), 4, 10_000, BY_SIZE);
        pool.run(false, (k, res, ran) -> assertTrue(res.complete()));
        assertEquals(List.of(1L, 1L), alongsideBig, "16384 > the budget of 10000: it ran alone, both times");
    }

    @Test
    void rowsDoNotDependOnTheThreadCount() {
        ExperimentSpec spec = Specs.parse(Specs.SMALL);
        List<String> csv = new ArrayList<>();
        for (int threads : new int[] {1, 2, 5}) {
            List<ExperimentRunner> runners = List.of(
                    new ExperimentRunner(spec, new ExperimentRunner.Options(1, false, false, Map.of())),
                    new ExperimentRunner(Specs.parse(Specs.MANY), new ExperimentRunner.Options(1, false, false, Map.of())));
            StringBuilder b = new StringBuilder();
            new PointPool(runners, threads).run(false, (k, r, ran) -> {
                assertTrue(r.complete());
                b.append(k).append('\n').append(ResultWriter.csv(r.rows()));
            });
            csv.add(b.toString());
        }
        // each experiment's rows are the same bytes as its own runner's
        String alone = ResultWriter.csv(ExperimentRunner.run(spec, new ExperimentRunner.Options(2, false, false, Map.of()))
                .rows());
        assertTrue(csv.get(0).contains(alone));
        assertEquals(csv.get(0).length(), csv.get(1).length());
        // hand-over order may differ with the thread count; each experiment's bytes may not
        for (String c : csv) {
            assertEquals(sorted(csv.get(0)), sorted(c));
        }
    }

    private static List<String> sorted(String text) {
        List<String> lines = new ArrayList<>(List.of(text.split("\n")));
        Collections.sort(lines);
        return lines;
    }

    @Test
    void aStopKeepsTheFinishedRowsOfEveryExperiment() throws Exception {
        PointPool[] pool = new PointPool[1];
        List<ExperimentRunner> runners = new ArrayList<>();
        for (String id : List.of("test.a", "test.b")) {
            runners.add(fake(id, p -> {
                if (size(p) <= 64) {
                    // the small points are last: the stop comes while they wait
                    pool[0].cancel();
                }
                return Map.of("point", p.index());
            }));
        }
        pool[0] = new PointPool(runners, 1, Long.MAX_VALUE, BY_SIZE);
        List<ExperimentResult> results = new ArrayList<>();
        List<List<ExperimentPoint>> ran = new ArrayList<>();
        pool[0].run(false, (k, r, points) -> {
            results.add(r);
            ran.add(points);
        });
        assertEquals(2, results.size());
        for (int k = 0; k < 2; k++) {
            ExperimentResult r = results.get(k);
            assertFalse(r.complete());
            assertEquals(24, r.planned());
            assertEquals(r.rows().size(), ran.get(k).size());
            // run order, and exactly the points that ran
            for (int i = 0; i < r.rows().size(); i++) {
                assertEquals(ran.get(k).get(i).index(), r.rows().get(i).get("point"));
            }
        }
        // one thread, largest first: both experiments' 8 sizes from 16384 to 128 (2 repetitions
        // each), then test.a's first 64-byte point, which stopped the pool; nothing after it started
        assertEquals(17, results.get(0).rows().size());
        assertEquals(16, results.get(1).rows().size());
    }

    @Test
    void aFailingPointStopsThePoolAndIsNamed() {
        ExperimentRunner bad = fake("test.a", p -> {
            if (size(p) == 512) {
                throw new IllegalStateException("boom");
            }
            return Map.of("point", p.index());
        });
        ExperimentRunner.PointFailedException e = assertThrows(ExperimentRunner.PointFailedException.class,
                () -> new PointPool(List.of(bad), 2, Long.MAX_VALUE, BY_SIZE).run(false, (k, r, ran) -> { }));
        assertTrue(e.getMessage().contains("size_B=512"), e.getMessage());
    }
}
