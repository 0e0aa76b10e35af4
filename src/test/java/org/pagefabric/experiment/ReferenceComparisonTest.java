package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReferenceComparisonTest {
    private static Map<String, Object> row(String policy, long size, double latency) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("policy", policy);
        r.put("size_B", size);
        r.put("latency_us", latency);
        return r;
    }

    private static Map<String, Object> expected(String series, Object x, Object paper, Double ours, Double ratio,
                                                String where) {
        Map<String, Object> r = new LinkedHashMap<>();
        r.put("series", series);
        r.put("x", x);
        r.put("metric", "latency_us");
        r.put("paper", paper);
        r.put("ours", ours);
        r.put("ratio", ratio);
        r.put("where", where);
        return r;
    }

    @Test
    void meanOverRepetitionsBesideThePaper() {
        ExperimentSpec spec = Specs.parse(Specs.SMALL);
        // Synthetic rows: two repetitions per size, and a row of another size that must not count.
        List<Map<String, Object>> rows = new ArrayList<>(List.of(row("pin-all", 8, 3.0), row("pin-all", 8, 4.0),
                row("pin-all", 4096, 10.0), row("pin-all", 4096, 12.5), row("pin-all", 64, 99.0)));
        ExperimentResult result = new ExperimentResult(spec, false, Map.of(), 5, rows, true);
        List<Map<String, Object>> cmp = ReferenceComparison.compare(spec, result);
        assertEquals(List.of(
                expected("pin-all", 8L, 2.0, 3.5, 1.75, "Fig. 1"),
                expected("pin-all", 4096L, "[withheld]", 11.25, null, null),
                expected("Touch-NoPres", 8L, 4.1, null, null, null)), cmp);
    }

    @Test
    void seriesCanBeAnotherColumnAndNumbersMatchByValue() {
        ExperimentSpec spec = Specs.parse(Specs.SMALL
                .replace("series: policy", "series: iterations")
                .replace("{series: pin-all, x: 8, metric: latency_us, value: 2.0, where: \"Fig. 1\"}",
                        "{series: \"3\", x: 8.0, metric: latency_us, value: 0}"));
        Map<String, Object> r = row("pin-all", 8, 5.0);
        r.put("iterations", 3L);
        ExperimentResult result = new ExperimentResult(spec, false, Map.of(), 1, List.of(r), true);
        Map<String, Object> first = ReferenceComparison.compare(spec, result).get(0);
        assertEquals(5.0, first.get("ours"));
        // A published 0 has no meaningful ratio.
        assertEquals(null, first.get("ratio"));
        assertTrue(ReferenceComparison.same(8L, 8.0));
        assertTrue(ReferenceComparison.same("pin-all", "pin-all"));
        assertTrue(!ReferenceComparison.same(8L, "eight"));
    }
}
