package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Derived reference metrics: ratios across series and across x, values at a crossing, ranges. */
class DerivedMetricTest {
    private static final String SPEC = """
            id: test.derived
            title: Derived
            workload: fh-put-latency
            policies: [firehose, rendezvous-nounpin, rendezvous-unpin]
            profile: firehose-myrinet
            grid:
              working_set_MiB: [100, 500]
            metrics: [latency_us, hit_rate_pct]
            plot: {x: working_set_MiB, y: latency_us, series: policy}
            series_labels:
              "Rendezvous no-unpin": rendezvous-nounpin
            derived:
              - {name: vs_best, metric: latency_us, series: firehose, over: [rendezvous-nounpin, rendezvous-unpin], pick: min}
              - {name: vs_worst_small, metric: latency_us, series: firehose, over: [rendezvous-nounpin, rendezvous-unpin], pick: max, x_max: 200}
              - {name: vs_small_set, metric: latency_us, series: firehose, over_x: 100}
              - {name: hits_at_crossing, metric: hit_rate_pct, series: firehose, over: [rendezvous-nounpin], at_crossing: latency_us}
            reference:
              - {series: Firehose, metric: vs_best, value: withheld}
              - {series: Firehose, x: 500, metric: vs_best, value: 2}
              - {series: Firehose, metric: vs_worst_small, value: withheld}
              - {series: Firehose, metric: vs_small_set, value: withheld}
              - {series: Firehose, metric: hits_at_crossing, value: withheld}
              - {series: "Rendezvous no-unpin", x: 100, metric: latency_us, value: 10}
            """;

    private static Map<String, Object> row(String policy, long ws, double latency, double hits) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("policy", policy);
        r.put("working_set_MiB", ws);
        r.put("latency_us", latency);
        r.put("hit_rate_pct", hits);
        return r;
    }

    private static final List<Map<String, Object>> ROWS = List.of(
            row("firehose", 100, 5, 100), row("firehose", 500, 40, 80),
            row("rendezvous-nounpin", 100, 20, 90), row("rendezvous-nounpin", 500, 25, 10),
            row("rendezvous-unpin", 100, 1000, 0), row("rendezvous-unpin", 500, 1000, 0));

    @Test
    void valuesFollowTheirDefinitions() {
        ExperimentSpec spec = Specs.parse(SPEC);
        List<Map<String, Object>> d = DerivedMetric.compute(spec, ROWS);
        assertEquals(List.of(
                Map.of("series", "firehose", "x", 100L, "metric", "vs_best", "value", 0.25),
                Map.of("series", "firehose", "x", 500L, "metric", "vs_best", "value", 1.6),
                Map.of("series", "firehose", "x", 100L, "metric", "vs_worst_small", "value", 0.005),
                Map.of("series", "firehose", "x", 500L, "metric", "vs_small_set", "value", 8.0),
                Map.of("series", "firehose", "x", 500L, "metric", "hits_at_crossing", "value", 90.0)), d);
    }

    @Test
    void aValueAtACrossingIsInterpolatedBackToTheCrossingBetweenTheTwoXAroundIt() {
        ExperimentSpec spec = Specs.parse(SPEC);
        // Latency gaps -15 at 100 and +45 at 500: the curves cross a quarter of the way, where
        // the hit rate has fallen a quarter of the way from 100 to 80.
        List<Map<String, Object>> rows = List.of(
                row("firehose", 100, 5, 100), row("firehose", 500, 70, 80),
                row("rendezvous-nounpin", 100, 20, 90), row("rendezvous-nounpin", 500, 25, 10),
                row("rendezvous-unpin", 100, 1000, 0), row("rendezvous-unpin", 500, 1000, 0));
        assertEquals(95.0, crossing(DerivedMetric.compute(spec, rows)));
        // Above from the first x on: nothing to interpolate from, the value there is reported.
        List<Map<String, Object>> above = List.of(
                row("firehose", 100, 30, 100), row("firehose", 500, 70, 80),
                row("rendezvous-nounpin", 100, 20, 90), row("rendezvous-nounpin", 500, 25, 10));
        assertEquals(100.0, crossing(DerivedMetric.compute(spec, above)));
        // Never above: no value.
        List<Map<String, Object>> below = List.of(
                row("firehose", 100, 5, 100), row("firehose", 500, 7, 80),
                row("rendezvous-nounpin", 100, 20, 90), row("rendezvous-nounpin", 500, 25, 10));
        assertNull(crossing(DerivedMetric.compute(spec, below)));
    }

    private static Object crossing(List<Map<String, Object>> derived) {
        return derived.stream().filter(m -> m.get("metric").equals("hits_at_crossing")).map(m -> m.get("value"))
                .findFirst().orElse(null);
    }

    @Test
    void referencesToDerivedMetricsAverageOverXAndLabelsMapToSeries() {
        ExperimentSpec spec = Specs.parse(SPEC);
        ExperimentResult result = new ExperimentResult(spec, false, Map.of(), ROWS.size(), ROWS, true);
        List<Map<String, Object>> c = ReferenceComparison.compare(spec, result);
        assertEquals(0.925, c.get(0).get("ours"));
        assertEquals(1.6, c.get(1).get("ours"));
        assertEquals(0.8, c.get(1).get("ratio"));
        assertEquals(0.005, c.get(2).get("ours"));
        assertEquals(8.0, c.get(3).get("ours"));
        assertEquals(90.0, c.get(4).get("ours"));
        assertEquals(20.0, c.get(5).get("ours"));
    }

    @Test
    void percentFormsAndOneNamePerSeries() {
        String spec = SPEC.replace("  - {name: vs_best,",
                "  - {name: gain_pct, metric: latency_us, series: rendezvous-unpin, over: [firehose], as: pct_change}\n"
                + "  - {name: gain_pct, metric: latency_us, series: rendezvous-nounpin, over: [firehose], as: pct_change}\n"
                + "  - {name: loss_pct, metric: latency_us, series: firehose, over: [rendezvous-nounpin], as: pct_loss}\n"
                + "  - {name: vs_best,");
        List<Map<String, Object>> d = DerivedMetric.compute(Specs.parse(spec), ROWS).subList(0, 6);
        assertEquals(List.of(
                Map.of("series", "rendezvous-unpin", "x", 100L, "metric", "gain_pct", "value", 19900.0),
                Map.of("series", "rendezvous-unpin", "x", 500L, "metric", "gain_pct", "value", 2400.0),
                Map.of("series", "rendezvous-nounpin", "x", 100L, "metric", "gain_pct", "value", 300.0),
                Map.of("series", "rendezvous-nounpin", "x", 500L, "metric", "gain_pct", "value", -37.5),
                Map.of("series", "firehose", "x", 100L, "metric", "loss_pct", "value", 75.0),
                Map.of("series", "firehose", "x", 500L, "metric", "loss_pct", "value", -60.0)), d);
    }

    @Test
    void noCrossingNoValue() {
        ExperimentSpec spec = Specs.parse(SPEC);
        List<Map<String, Object>> rows = List.of(row("firehose", 100, 5, 100), row("rendezvous-nounpin", 100, 20, 90));
        ExperimentResult result = new ExperimentResult(spec, false, Map.of(), rows.size(), rows, true);
        assertNull(ReferenceComparison.compare(spec, result).get(4).get("ours"));
    }
}
