package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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

    /** The SMALL spec with its reference list replaced. */
    private static ExperimentSpec spec(String... references) {
        String head = Specs.SMALL.substring(0, Specs.SMALL.indexOf("reference:"));
        StringBuilder b = new StringBuilder(head).append("reference:\n");
        for (String r : references) {
            b.append("  - ").append(r).append('\n');
        }
        return Specs.parse(b.toString());
    }

    private static List<Map<String, Object>> compare(ExperimentSpec spec, List<Map<String, Object>> rows) {
        return ReferenceComparison.compare(spec, new ExperimentResult(spec, false, Map.of(), rows.size(), rows, true));
    }

    private static List<Map<String, Object>> sweep(String policy, double... latencies) {
        List<Map<String, Object>> rows = new ArrayList<>();
        long[] sizes = {8, 4096};
        for (int i = 0; i < latencies.length; i++) {
            rows.add(row(policy, sizes[i], latencies[i]));
        }
        return rows;
    }

    @Test
    void meanOverRepetitionsBesideThePaperWithToleranceAndVerdict() {
        ExperimentSpec spec = Specs.parse(Specs.SMALL);
        // Synthetic rows: two repetitions per size, and a row of another size that must not count.
        List<Map<String, Object>> rows = new ArrayList<>(List.of(row("pin-all", 8, 3.0), row("pin-all", 8, 4.0),
                row("pin-all", 4096, 10.0), row("pin-all", 4096, 12.5), row("pin-all", 64, 99.0)));
        List<Map<String, Object>> cmp = compare(spec, rows);
        assertEquals(ReferenceComparison.COLUMNS, List.copyOf(cmp.get(0).keySet()));
        assertEquals(3.5, cmp.get(0).get("ours"));
        assertEquals(1.75, cmp.get(0).get("ratio"));
        assertEquals("[0.8, 1.25]", cmp.get(0).get("tolerance"));
        assertEquals("outside", cmp.get(0).get("verdict"));
        assertEquals("[withheld]", cmp.get(1).get("paper"));
        assertEquals(11.25, cmp.get(1).get("ours"));
        assertEquals("withheld", cmp.get(1).get("verdict"));
        // A paper series we do not run has no value: outside, with the reason.
        assertNull(cmp.get(2).get("ours"));
        assertEquals("outside", cmp.get(2).get("verdict"));
        assertTrue(String.valueOf(cmp.get(2).get("note")).contains("no value"), cmp.get(2).toString());
    }

    @Test
    void measuredAndApproximateTolerancesAtTheirEdges() {
        ExperimentSpec spec = spec("{series: pin-all, x: 8, metric: latency_us, value: 10}",
                "{series: pin-all, x: 8, metric: latency_us, value: 10, kind: approximate}",
                "{series: pin-all, x: 4096, metric: latency_us, value: 10}",
                "{series: pin-all, x: 4096, metric: latency_us, value: 10, kind: approximate}");
        List<Map<String, Object>> cmp = compare(spec, sweep("pin-all", 12.5, 14.9));
        assertEquals(List.of("within", "within", "outside", "within"), cmp.stream().map(r -> r.get("verdict")).toList());
        assertEquals("[0.67, 1.5]", cmp.get(1).get("tolerance"));
        List<Map<String, Object>> low = compare(spec, sweep("pin-all", 7.9, 6.6));
        assertEquals(List.of("outside", "within", "outside", "outside"), low.stream().map(r -> r.get("verdict")).toList());
    }

    @Test
    void boundsAreTheToleranceThemselves() {
        ExperimentSpec spec = spec("{series: pin-all, x: 8, metric: latency_us, value: 1, kind: at_most}",
                "{series: pin-all, x: 4096, metric: latency_us, value: 100, kind: at_least}");
        List<Map<String, Object>> cmp = compare(spec, sweep("pin-all", 0.9, 99));
        assertEquals("<= 1", cmp.get(0).get("tolerance"));
        assertEquals("within", cmp.get(0).get("verdict"));
        assertEquals(">= 100", cmp.get(1).get("tolerance"));
        assertEquals("outside", cmp.get(1).get("verdict"));
        assertEquals("within", compare(spec, sweep("pin-all", 1, 100)).get(1).get("verdict"));
    }

    @Test
    void aClaimAtEveryXIsDecidedByItsWorstX() {
        ExperimentSpec spec = spec("{series: pin-all, x: all, metric: latency_us, value: 6000, kind: approximate}");
        Map<String, Object> ok = compare(spec, sweep("pin-all", 5000, 7000)).get(0);
        assertEquals("within", ok.get("verdict"));
        Map<String, Object> bad = compare(spec, sweep("pin-all", 6000, 3000)).get(0);
        assertEquals("outside", bad.get("verdict"));
        assertEquals(3000.0, bad.get("ours"));
        assertEquals("outside at size_B = 4096", bad.get("note"));
    }

    @Test
    void aBoundAtEveryXShowsTheValueThatDecides() {
        ExperimentSpec upper = spec("{series: pin-all, x: all, metric: latency_us, value: 20, kind: at_most}");
        Map<String, Object> c = compare(upper, sweep("pin-all", 7, 23)).get(0);
        assertEquals(23.0, c.get("ours"));
        assertEquals("outside", c.get("verdict"));
        ExperimentSpec lower = spec("{series: pin-all, x: all, metric: latency_us, value: 10, kind: at_least}");
        Map<String, Object> l = compare(lower, sweep("pin-all", 12, 11)).get(0);
        assertEquals(11.0, l.get("ours"));
        assertEquals("within", l.get("verdict"));
    }

    @Test
    void aReferenceWithoutXIsNotComparableWhenThePlotHasSeveral() {
        Map<String, Object> c = compare(spec("{series: pin-all, metric: latency_us, value: 4}"),
                sweep("pin-all", 4, 500)).get(0);
        assertEquals("not comparable", c.get("verdict"));
        assertNull(c.get("ratio"));
    }

    @Test
    void quickAndSetRunsAreNotComparableButTheSameSetUpIs() {
        ExperimentSpec declared = spec("{series: pin-all, x: 8, metric: latency_us, value: 4}");
        ExperimentSpec quick = Grid.effective(declared, true, Map.of());
        List<Map<String, Object>> rows = List.of(row("pin-all", 64, 4));
        Map<String, Object> q = ReferenceComparison.compare(declared,
                new ExperimentResult(quick, true, Map.of(), 1, rows, true), declared).get(0);
        // The quick grid runs one repetition of two: another estimate than the paper's set-up.
        assertEquals("not comparable", q.get("verdict"));
        assertEquals("repetitions = 1 where the paper's set-up has 2", q.get("note"));
        ExperimentSpec set = Grid.effective(declared, false, Map.of("iterations", "1"));
        Map<String, Object> s = ReferenceComparison.compare(declared,
                new ExperimentResult(set, false, Map.of("iterations", "1"), 1, sweep("pin-all", 4, 9), true), declared)
                .get(0);
        assertEquals("not comparable", s.get("verdict"));
        assertTrue(String.valueOf(s.get("note")).startsWith("iterations = 1 where the paper's set-up has 3"),
                String.valueOf(s.get("note")));
        // fewer repetitions average fewer seeds: not the estimate the tolerance was set on
        ExperimentSpec fewer = Grid.effective(declared, false, Map.of("repetitions", "1"));
        Map<String, Object> f = ReferenceComparison.compare(declared,
                new ExperimentResult(fewer, false, Map.of(), 1, sweep("pin-all", 4, 9), true), declared).get(0);
        assertEquals("not comparable", f.get("verdict"));
        assertEquals("repetitions = 1 where the paper's set-up has 2", f.get("note"));
        ExperimentSpec same = Grid.effective(declared, false, Map.of("seed", "7"));
        assertEquals("within", ReferenceComparison.compare(declared,
                new ExperimentResult(same, false, Map.of(), 1, sweep("pin-all", 4, 9), true), declared)
                .get(0).get("verdict"));
    }

    /** A spec of sizes 8 and 4096 whose quick grid keeps the paper's set-up at size 8 only. */
    private static ExperimentSpec quickAtEight(String... references) {
        String text = Specs.SMALL.substring(0, Specs.SMALL.indexOf("reference:"))
                .replace("  repetitions: 1\n  grid: {size_B: [64]}", "  grid: {size_B: [8]}");
        StringBuilder b = new StringBuilder(text).append("reference:\n");
        for (String r : references) {
            b.append("  - ").append(r).append('\n');
        }
        return Specs.parse(b.toString());
    }

    private static Map<String, Object> quickVerdict(ExperimentSpec declared, List<Map<String, Object>> rows, int k) {
        ExperimentSpec quick = Grid.effective(declared, true, Map.of());
        return ReferenceComparison.compare(declared, new ExperimentResult(quick, true, Map.of(), rows.size(), rows,
                true), declared).get(k);
    }

    @Test
    void aQuickRunComparesWhereItRunsThePapersSetUpAndOnlyThere() {
        ExperimentSpec declared = quickAtEight("{series: pin-all, x: 8, metric: latency_us, value: 4}",
                "{series: pin-all, x: 4096, metric: latency_us, value: 9}",
                "{series: pin-all, x: all, metric: latency_us, value: 4, kind: approximate}",
                "{series: pin-all, metric: latency_us, shape: increasing}",
                "{series: Touch-NoPres, x: 8, metric: latency_us, value: 4.1}");
        assertEquals(1, Grid.effective(declared, true, Map.of()).axis("size_B").values().size());
        List<Map<String, Object>> rows = List.of(row("pin-all", 8, 4.1));
        assertEquals("within", quickVerdict(declared, rows, 0).get("verdict"), "size 8 ran as the paper ran it");
        assertEquals("not comparable", quickVerdict(declared, rows, 1).get("verdict"));
        assertEquals("size_B = 4096 did not run", quickVerdict(declared, rows, 1).get("note"));
        // a claim over every x, or a trend over x, is not judged on a subset of the x
        assertEquals("not comparable", quickVerdict(declared, rows, 2).get("verdict"));
        assertEquals("not every size_B ran", quickVerdict(declared, rows, 3).get("note"));
        // a series the smaller grid leaves out is not a miss
        assertEquals("not comparable", quickVerdict(declared, rows, 4).get("verdict"));
        // and the same rows on the paper's grid: a missing series is outside
        assertEquals("outside", compare(declared, rows).get(4).get("verdict"));
    }

    @Test
    void monotoneTrendsTolerateNoiseButNeedAnOverallChange() {
        ExperimentSpec spec = spec("{series: pin-all, metric: latency_us, shape: decreasing}");
        assertEquals("within", compare(spec, sweep("pin-all", 10, 9)).get(0).get("verdict"));
        assertEquals("(decreasing)", compare(spec, sweep("pin-all", 10, 9)).get(0).get("paper"));
        // Flat within 2 %: not a drop.
        assertEquals("outside", compare(spec, sweep("pin-all", 10, 9.9)).get(0).get("verdict"));
        ExperimentSpec up = spec("{series: pin-all, metric: latency_us, shape: increasing}");
        assertEquals("outside", compare(up, sweep("pin-all", 10, 9)).get(0).get("verdict"));
        assertEquals("within", compare(up, sweep("pin-all", 10, 11)).get(0).get("verdict"));
    }

    @Test
    void rankedGroupsNeedEveryMemberAboveTheNextGroup() {
        ExperimentSpec spec = spec("{metric: latency_us, x: 8, shape: ranked, order: [[a, b], c]}");
        List<Map<String, Object>> rows = List.of(row("a", 8, 5), row("b", 8, 6), row("c", 8, 4));
        assertEquals("within", compare(spec, rows).get(0).get("verdict"));
        assertEquals("(a ~ b > c)", compare(spec, rows).get(0).get("paper"));
        List<Map<String, Object>> tie = List.of(row("a", 8, 5), row("b", 8, 4), row("c", 8, 4.5));
        assertEquals("outside", compare(spec, tie).get(0).get("verdict"));
    }

    @Test
    void signChecksReadTheWorstValue() {
        ExperimentSpec spec = spec("{series: pin-all, x: all, metric: latency_us, shape: positive}");
        assertEquals("within", compare(spec, sweep("pin-all", 1, 2)).get(0).get("verdict"));
        Map<String, Object> c = compare(spec, sweep("pin-all", 1, -2)).get(0);
        assertEquals("outside", c.get("verdict"));
        assertEquals(-2.0, c.get("ours"));
    }

    @Test
    void seriesCanBeAnotherColumnAndNumbersMatchByValue() {
        ExperimentSpec spec = Specs.parse(Specs.SMALL
                .replace("series: policy", "series: iterations")
                .replace("{series: pin-all, x: 8, metric: latency_us, value: 2.0, where: \"Fig. 1\"}",
                        "{series: \"3\", x: 8.0, metric: latency_us, value: 0, kind: at_most}"));
        Map<String, Object> r = row("pin-all", 8, 5.0);
        r.put("iterations", 3L);
        Map<String, Object> first = compare(spec, List.of(r)).get(0);
        assertEquals(5.0, first.get("ours"));
        // A published 0 has no meaningful ratio.
        assertEquals(null, first.get("ratio"));
        assertTrue(ReferenceComparison.same(8L, 8.0));
        assertTrue(ReferenceComparison.same("pin-all", "pin-all"));
        assertTrue(!ReferenceComparison.same(8L, "eight"));
    }

    @Test
    void tallyCountsValidationApartFromTheRest() {
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String[] v : new String[][] {{"within", "validation"}, {"outside", "validation"},
                {"within", "calibration"}, {"withheld", "validation"}, {"not comparable", "validation"}}) {
            rows.add(Map.of("verdict", v[0], "role", v[1]));
        }
        VerdictTally t = VerdictTally.of(rows);
        assertEquals(new VerdictTally(1, 2, 1, 1, 1), t);
        assertEquals("published numbers within tolerance: 1 of 2 (50 %); apart: 1 withheld, 1 not comparable,"
                + " 1 calibration target", t.line());
    }

    @Test
    void aTallyThatComparedNoneSaysWhatAFullRunCompares() {
        VerdictTally none = new VerdictTally(0, 0, 2, 3, 0);
        assertEquals("published numbers: none compared; apart: 2 withheld, 3 not comparable, 0 calibration targets",
                none.line());
        assertEquals("published numbers: none compared in a quick run (3 compared in a full run); apart: 2 withheld,"
                + " 3 not comparable, 0 calibration targets", none.line(true, 3));
        assertEquals("published numbers: none compared with these --set values (3 compared without them); apart:"
                + " 2 withheld, 3 not comparable, 0 calibration targets", none.line(false, 3));
        assertEquals(none.line(), none.line(true, 0), "a full run compares none either");
        VerdictTally some = new VerdictTally(1, 2, 0, 1, 0);
        assertEquals(some.line(), some.line(true, 3), "a run that compared some keeps its count");
    }
}
