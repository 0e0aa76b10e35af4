package org.pagefabric.experiment.sensitivity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bands of each policy's main metric over samples, and whether the ranking at each x holds across them. */
class PolicyBandsTest {
    private static Map<String, Object> row(String policy, long x, double latency) {
        return Map.of("policy", policy, "size_B", x, "latency_us", latency, "verified", true);
    }

    @Test
    void aRankingThatEverySampleKeepsHolds() {
        PolicyBands b = new PolicyBands("policy", "size_B", "latency_us", false);
        b.add(0, List.of(row("a", 64, 1.0), row("b", 64, 2.0)));
        b.add(1, List.of(row("a", 64, 1.5), row("b", 64, 3.0)));
        b.add(2, List.of(row("a", 64, 0.8), row("b", 64, 1.1)));
        assertEquals(List.of("ranking at size_B 64: holds across the band (the same order in all 2 samples)"),
                b.rankingLines());
        List<Map<String, Object>> t = b.table();
        assertEquals("a", t.get(0).get("policy"));
        assertEquals("0.8 .. 1.5", t.get(0).get("band"));
        assertEquals("1", t.get(0).get("ranks_seen"));
    }

    @Test
    void aSampleWhereAnotherPolicyWinsIsNamed() {
        PolicyBands b = new PolicyBands("policy", "size_B", "latency_us", false);
        b.add(0, List.of(row("a", 64, 1.0), row("b", 64, 2.0)));
        b.add(1, List.of(row("a", 64, 3.0), row("b", 64, 2.0)));
        b.add(2, List.of(row("a", 64, 1.0), row("b", 64, 2.5)));
        assertEquals(List.of("ranking at size_B 64: the order changes in 1 of 2 samples; a stays best in 1 of 2;"
                + " b best in 1"), b.rankingLines());
        assertEquals("1..2", b.table().get(0).get("ranks_seen"));
    }

    @Test
    void equalValuesShareARankAndUnverifiedRowsAreLeftOut() {
        PolicyBands b = new PolicyBands("policy", "size_B", "bandwidth", true);
        b.add(0, List.of(Map.of("policy", "a", "size_B", 1L, "bandwidth", 5.0, "verified", true),
                Map.of("policy", "b", "size_B", 1L, "bandwidth", 5.0, "verified", true),
                Map.of("policy", "c", "size_B", 1L, "bandwidth", 9.0, "verified", false)));
        List<Map<String, Object>> t = b.table();
        assertEquals(2, t.size(), "data that did not verify has no band: " + t);
        assertEquals(1, t.get(0).get("rank_nominal"));
        assertEquals(1, t.get(1).get("rank_nominal"));
        assertTrue(b.rankingLines().getFirst().contains("holds"), b.rankingLines().toString());
    }
}
