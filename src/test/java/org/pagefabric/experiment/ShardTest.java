package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ShardTest {
    private static final ExperimentRunner PART = new ExperimentRunner(SpecReader.bundled("part.fig7"),
            new ExperimentRunner.Options(1, false, false, Map.of()));

    @Test
    void parsesIOfN() {
        assertEquals(new Shard(2, 5), Shard.parse("2/5"));
        assertEquals(new Shard(1, 1), Shard.parse(" 1/1 "));
    }

    @ParameterizedTest
    @ValueSource(strings = {"0/3", "4/3", "1/0", "-1/2", "a/b", "3", "1/2/3", "", "1/"})
    void refusesAnythingButIOfN(String text) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Shard.parse(text));
        assertTrue(e.getMessage().startsWith("--shard '" + text + "' is not valid"), e.getMessage());
        assertTrue(!e.getMessage().contains("\n"));
    }

    @Test
    void everyPointRunsInExactlyOneShardWhateverTheCount() {
        List<ExperimentPoint> points = PART.points();
        for (int n = 1; n <= points.size() + 2; n++) {
            int[] seen = new int[points.size()];
            for (int i = 1; i <= n; i++) {
                List<ExperimentPoint> share = new Shard(i, n).select(PART.spec().workload(), points);
                assertEquals(share.stream().sorted(Comparator.comparingInt(ExperimentPoint::index)).toList(), share,
                        "a shard's points come in run order");
                share.forEach(p -> seen[p.index()]++);
                assertEquals(share, new Shard(i, n).select(PART.spec().workload(), points), "deterministic");
            }
            for (int s : seen) {
                assertEquals(1, s, "N=" + n);
            }
        }
    }

    @Test
    void sharesAreBalancedByEstimatedCostNotByIndex() {
        List<ExperimentPoint> points = PART.points();
        List<Double> costs = points.stream().map(p -> CostModel.bundled().cpuSeconds(PART.spec().workload(), p)).toList();
        double largest = costs.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        assertTrue(largest > costs.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
                "part.fig7's sizes differ, so its points' estimates do: " + costs);
        for (int n = 2; n <= 4; n++) {
            List<Double> loads = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                loads.add(new Shard(i, n).select(PART.spec().workload(), points).stream()
                        .mapToDouble(p -> costs.get(p.index())).sum());
            }
            double max = loads.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            double min = loads.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            // largest-first greedy: no shard exceeds another by more than one point's estimate
            assertTrue(max - min <= largest, "N=" + n + " loads " + loads);
        }
        // the most expensive point opens shard 1
        int first = costs.indexOf(largest);
        assertTrue(new Shard(1, 3).select(PART.spec().workload(), points).contains(points.get(first)));
    }

    @Test
    void aSweepIsDealtAsOneLargestFirstOntoTheLeastLoadedShard() {
        // experiment 0's one lump and experiment 1's three smaller points: together they even out,
        // where dealing each experiment on its own would leave 10 against 4 + 3 + 3 only by luck
        assertArrayEquals(new int[][] {{0}, {1, 1, 1}}, Shard.deal(new double[][] {{10}, {4, 3, 3}}, 2));
        // equal estimates: the earlier experiment, then the earlier run, goes first; equally loaded
        // shards: the lowest number takes it
        assertArrayEquals(new int[][] {{0, 1}, {2}}, Shard.deal(new double[][] {{5, 5}, {5}}, 3));
        // more shards than runs: every run on a shard of its own, the last shards empty
        assertArrayEquals(new int[][] {{0}, {1}}, Shard.deal(new double[][] {{1}, {1}}, 4));
    }

    @Test
    void everyPointOfASweepRunsInExactlyOneShardAndTheSharesAreBalanced() {
        List<ExperimentRunner> sweep = java.util.stream.Stream.of("part.fig7", "part.table2", "fh.table3", "omx.table2")
                .map(id -> new ExperimentRunner(SpecReader.bundled(id), new ExperimentRunner.Options(1, false, false,
                        Map.of()))).toList();
        List<org.pagefabric.workload.Workload> workloads = sweep.stream().map(r -> r.spec().workload()).toList();
        List<List<ExperimentPoint>> points = sweep.stream().map(ExperimentRunner::points).toList();
        double largest = 0;
        for (int k = 0; k < sweep.size(); k++) {
            for (ExperimentPoint p : points.get(k)) {
                largest = Math.max(largest, CostModel.bundled().cpuSeconds(workloads.get(k), p));
            }
        }
        for (int n = 1; n <= 5; n++) {
            int[][] seen = new int[sweep.size()][];
            for (int k = 0; k < sweep.size(); k++) {
                seen[k] = new int[points.get(k).size()];
            }
            double[] load = new double[n];
            for (int i = 1; i <= n; i++) {
                List<List<ExperimentPoint>> share = new Shard(i, n).select(workloads, points);
                assertEquals(share, new Shard(i, n).select(workloads, points), "deterministic");
                for (int k = 0; k < sweep.size(); k++) {
                    for (ExperimentPoint p : share.get(k)) {
                        seen[k][p.index()]++;
                        load[i - 1] += CostModel.bundled().cpuSeconds(workloads.get(k), p);
                    }
                }
            }
            for (int[] s : seen) {
                for (int c : s) {
                    assertEquals(1, c, "N=" + n);
                }
            }
            double max = java.util.Arrays.stream(load).max().orElseThrow();
            double min = java.util.Arrays.stream(load).min().orElseThrow();
            assertTrue(max - min <= largest, "N=" + n + " loads " + java.util.Arrays.toString(load));
        }
    }

    @Test
    void costGrowsWithSizeAndIterations() {
        ExperimentPoint small = PART.points().get(0);
        ExperimentPoint large = PART.points().stream()
                .max(Comparator.comparingLong(p -> ((Number) PART.spec().workload().resolve(p.workloadValues())
                        .get("size_B")).longValue())).orElseThrow();
        assertTrue(CostModel.structural(PART.spec().workload(), large) > CostModel.structural(PART.spec().workload(), small));
    }
}
