package org.pagefabric.experiment;

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
                List<ExperimentPoint> share = new Shard(i, n).select(PART.spec().workload(), points, 0);
                assertEquals(share.stream().sorted(Comparator.comparingInt(ExperimentPoint::index)).toList(), share,
                        "a shard's points come in run order");
                share.forEach(p -> seen[p.index()]++);
                assertEquals(share, new Shard(i, n).select(PART.spec().workload(), points, 0), "deterministic");
            }
            for (int s : seen) {
                assertEquals(1, s, "N=" + n);
            }
        }
    }

    @Test
    void sharesAreBalancedByEstimatedCostNotByIndex() {
        List<ExperimentPoint> points = PART.points();
        List<Double> costs = points.stream().map(p -> Shard.cost(PART.spec().workload(), p)).toList();
        double largest = costs.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
        assertTrue(largest > costs.stream().mapToDouble(Double::doubleValue).min().orElseThrow(),
                "part.fig7's sizes differ, so its points' estimates do: " + costs);
        for (int n = 2; n <= 4; n++) {
            List<Double> loads = new ArrayList<>();
            for (int i = 1; i <= n; i++) {
                loads.add(new Shard(i, n).select(PART.spec().workload(), points, 0).stream()
                        .mapToDouble(p -> costs.get(p.index())).sum());
            }
            double max = loads.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
            double min = loads.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
            // largest-first greedy: no shard exceeds another by more than one point's estimate
            assertTrue(max - min <= largest, "N=" + n + " loads " + loads);
        }
        // the most expensive point opens shard 1
        int first = costs.indexOf(largest);
        assertTrue(new Shard(1, 3).select(PART.spec().workload(), points, 0).contains(points.get(first)));
    }

    @Test
    void theDealingStartsWhereTheSweepSaysAndStillCoversEveryPointOnce() {
        List<ExperimentPoint> points = PART.points();
        List<Double> costs = points.stream().map(p -> Shard.cost(PART.spec().workload(), p)).toList();
        ExperimentPoint largest = points.get(costs.indexOf(costs.stream().mapToDouble(Double::doubleValue).max().orElseThrow()));
        for (int first : new int[] {1, 5, 7}) {
            int n = 3;
            assertTrue(new Shard(first % n + 1, n).select(PART.spec().workload(), points, first).contains(largest),
                    "first=" + first + ": the largest point opens shard " + (first % n + 1));
            int[] seen = new int[points.size()];
            for (int i = 1; i <= n; i++) {
                new Shard(i, n).select(PART.spec().workload(), points, first).forEach(p -> seen[p.index()]++);
            }
            for (int s : seen) {
                assertEquals(1, s, "first=" + first);
            }
        }
    }

    @Test
    void costGrowsWithSizeAndIterations() {
        ExperimentPoint small = PART.points().get(0);
        ExperimentPoint large = PART.points().stream()
                .max(Comparator.comparingLong(p -> ((Number) PART.spec().workload().resolve(p.workloadValues())
                        .get("size_B")).longValue())).orElseThrow();
        assertTrue(Shard.cost(PART.spec().workload(), large) > Shard.cost(PART.spec().workload(), small));
    }
}
