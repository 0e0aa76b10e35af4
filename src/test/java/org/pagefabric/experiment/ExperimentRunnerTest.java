package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.pagefabric.workload.PointRun;

class ExperimentRunnerTest {
    private static ExperimentRunner.Options threads(int n) {
        return new ExperimentRunner.Options(n, false, false, Map.of());
    }

    @Test
    void sameCsvBytesWithOneAndThreeThreads() {
        ExperimentSpec spec = Specs.parse(Specs.SMALL);
        ExperimentResult one = ExperimentRunner.run(spec, threads(1));
        ExperimentResult three = ExperimentRunner.run(spec, threads(3));
        assertEquals(ResultWriter.csv(one.rows()), ResultWriter.csv(three.rows()));
        assertEquals(ResultWriter.json(one.rows()), ResultWriter.json(three.rows()));
        assertEquals(4, one.rows().size());
        assertTrue(one.complete());
        assertTrue(one.allVerified());
    }

    @Test
    void rowsHaveEveryParameterAndMetricInRunOrder() {
        ExperimentSpec spec = Specs.parse(Specs.SMALL.replace("  iterations: 3", "  iterations: 3\n  link.loss: \"0\""));
        ExperimentResult r = ExperimentRunner.run(spec, threads(2));
        List<String> expected = new ArrayList<>(spec.parameterColumns());
        expected.addAll(PointRun.METRICS);
        for (Map<String, Object> row : r.rows()) {
            assertEquals(expected, List.copyOf(row.keySet()));
        }
        assertEquals(List.of(8L, 8L, 4096L, 4096L), r.rows().stream().map(x -> x.get("size_B")).toList());
        assertEquals(List.of(0, 0, 1, 1), r.rows().stream().map(x -> x.get("point")).toList());
        assertEquals(List.of(0, 1, 0, 1), r.rows().stream().map(x -> x.get("repetition")).toList());
        assertEquals(List.of(7L, 8L, 7L, 8L), r.rows().stream().map(x -> x.get("seed")).toList());
        assertEquals(0.0, r.rows().get(0).get("link.loss"));
        assertEquals("test.small", r.rows().get(0).get("experiment"));
        assertEquals(3L, r.rows().get(0).get("iterations"));
        // A larger message takes longer: the rows are measurements, not copies of one another.
        assertTrue((Double) r.rows().get(2).get("latency_us") > (Double) r.rows().get(0).get("latency_us"));
    }

    @Test
    void quickAndSetChangeWhatRuns() {
        ExperimentSpec spec = Specs.parse(Specs.SMALL);
        ExperimentResult r = ExperimentRunner.run(spec, new ExperimentRunner.Options(1, true, false,
                Map.of("iterations", "2")));
        assertEquals(1, r.rows().size());
        assertEquals(64L, r.rows().get(0).get("size_B"));
        assertEquals(2L, r.rows().get(0).get("iterations"));
        assertTrue(r.quick());
        assertEquals(Map.of("iterations", "2"), r.overrides());
    }

    @Test
    void cancelFromAnotherThreadKeepsTheFinishedPrefix() throws Exception {
        ExperimentSpec spec = Specs.parse(Specs.MANY);
        // Points from index 3 on wait until the run is cancelled, so the stop lands mid-run
        // however the threads are scheduled.
        java.util.concurrent.CountDownLatch cancelled = new java.util.concurrent.CountDownLatch(1);
        ExperimentRunner[] holder = new ExperimentRunner[1];
        ExperimentRunner runner = new ExperimentRunner(spec, threads(2), p -> {
            if (p.index() >= 3) {
                try {
                    cancelled.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return Map.of("point", p.index());
        });
        holder[0] = runner;
        Thread stopper = new Thread(() -> {
            while (holder[0].finished() < 3) {
                Thread.onSpinWait();
            }
            holder[0].cancel();
            cancelled.countDown();
        });
        stopper.start();
        ExperimentResult partial = runner.run();
        stopper.join();
        assertFalse(partial.complete());
        assertEquals(24, partial.planned());
        assertTrue(partial.rows().size() >= 3 && partial.rows().size() < 24, "rows: " + partial.rows().size());
        // The kept rows are exactly the first rows of a full run.
        ExperimentResult full = new ExperimentRunner(spec, threads(2), p -> Map.of("point", p.index())).run();
        assertTrue(full.complete());
        assertEquals(full.rows().subList(0, partial.rows().size()), partial.rows());
    }

    @Test
    void cancelBeforeRunGivesNoRowsAndIncomplete() {
        ExperimentRunner runner = new ExperimentRunner(Specs.parse(Specs.SMALL), threads(1));
        runner.cancel();
        ExperimentResult r = runner.run();
        assertEquals(0, r.rows().size());
        assertFalse(r.complete());
        assertEquals(4, r.planned());
    }

    @Test
    void runHandlingInterruptHandsTheResultOverOnce() {
        ExperimentRunner runner = new ExperimentRunner(Specs.parse(Specs.SMALL), threads(2));
        AtomicInteger calls = new AtomicInteger();
        List<ExperimentResult> seen = new ArrayList<>();
        ExperimentResult r = runner.runHandlingInterrupt(res -> {
            calls.incrementAndGet();
            seen.add(res);
        });
        assertEquals(1, calls.get());
        assertEquals(List.of(r), seen);
        assertTrue(r.complete());
    }

    @Test
    void aFailingPointIsNamedLowestIndexFirst() {
        ExperimentSpec spec = Specs.parse(Specs.MANY);
        for (int threads : new int[] {1, 3}) {
            // Points 5 and 9 fail; whatever the thread count, point 5 is the one reported.
            ExperimentRunner runner = new ExperimentRunner(spec, threads(threads), p -> {
                if (p.index() == 5 || p.index() == 9) {
                    throw new IllegalStateException("model bug at " + p.index());
                }
                return Map.of("point", p.index());
            });
            ExperimentRunner.PointFailedException e = assertThrows(ExperimentRunner.PointFailedException.class,
                    runner::run);
            assertEquals("point 5 (size_B=32 iterations=2 policy=pin-all rep=1) failed:"
                    + " java.lang.IllegalStateException: model bug at 5", e.getMessage());
        }
    }

    @Test
    void threadsMustBePositive() {
        assertEquals("--threads must be at least 1, not 0", assertThrows(IllegalArgumentException.class,
                () -> new ExperimentRunner.Options(0, false, false, Map.of())).getMessage());
    }
}
