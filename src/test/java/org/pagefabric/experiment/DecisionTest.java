package org.pagefabric.experiment;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.pagefabric.experiment.Decision.Candidate;
import org.pagefabric.experiment.Decision.Place;

class DecisionTest {
    private static Candidate c(String policy, double metric, double pinned) {
        return new Candidate(policy, metric, pinned, null);
    }

    private static List<String> order(Decision d) {
        return d.ranking().stream().map(p -> p.candidate().policy()).toList();
    }

    private static Place place(Decision d, String policy) {
        return d.ranking().stream().filter(p -> p.candidate().policy().equals(policy)).findFirst().orElseThrow();
    }

    @Test
    void tiesShareARankAndAreOrderedByPinnedMemoryThenName() {
        // pingpong at 64 KiB on the default profile: four policies at 4.442 us
        Decision d = Decision.of("latency_us", false, List.of(c("firehose", 4.442, 0.188), c("pin-all", 4.442, 0.25),
                c("odp-implicit", 4.442, 0.0), c("odp-explicit", 4.442, 0.0), c("bounce", 19.685, 1.0),
                c("cache-mmu", 4.594, 0.188)));
        assertEquals(List.of("odp-explicit", "odp-implicit", "firehose", "pin-all", "cache-mmu", "bounce"), order(d));
        assertEquals(List.of(1, 1, 1, 1, 5, 6), d.ranking().stream().map(Place::rank).toList());
    }

    @Test
    void valuesThatDifferOnlyInRoundingTie() {
        Decision d = Decision.of("latency_us", false, List.of(c("a", 100.0, 1), c("b", 100.04, 0)));
        assertEquals(1, place(d, "a").rank());
        assertEquals(1, place(d, "b").rank());
        assertEquals("b", order(d).get(0), "the tie goes to the one that pins less");
        Decision apart = Decision.of("latency_us", false, List.of(c("a", 100.0, 1), c("b", 100.2, 0)));
        assertEquals(2, place(apart, "b").rank());
    }

    @Test
    void higherIsBetterRanksTheLargestFirst() {
        Decision d = Decision.of("bandwidth_MBps", true, List.of(c("slow", 10, 0), c("fast", 20, 4)));
        assertEquals(List.of("fast", "slow"), order(d));
    }

    @Test
    void paretoFrontIsMetricAgainstPinnedMemory() {
        Decision d = Decision.of("latency_us", false, List.of(c("pin-all", 1.0, 4), c("odp", 1.5, 0),
                c("cache", 1.2, 2), c("dominated", 1.6, 3), c("same-as-pin-all-but-more", 1.0, 5)));
        assertTrue(place(d, "pin-all").pareto());
        assertTrue(place(d, "odp").pareto());
        assertTrue(place(d, "cache").pareto());
        assertFalse(place(d, "dominated").pareto(), "odp is faster and pins less");
        assertFalse(place(d, "same-as-pin-all-but-more").pareto(), "tied latency, more pinned");
    }

    @Test
    void recommendsThePolicyThatPinsLeastWithinOnePercentOfTheBest() {
        Decision d = Decision.of("latency_us", false, List.of(c("pin-all", 4.40, 4), c("odp-explicit", 4.43, 0),
                c("bounce", 19.0, 1)));
        assertEquals("pin-all", order(d).get(0));
        assertEquals("odp-explicit: pin-all's latency within 0.682 % (4.43 us) with 0 MiB pinned instead of 4 MiB",
                d.recommendation());
    }

    @Test
    void recommendsAmongTiesTheOneThatPinsLeast() {
        Decision d = Decision.of("latency_us", false, List.of(c("pin-all", 4.442, 0.25), c("odp-explicit", 4.442, 0)));
        assertEquals("odp-explicit: ties the best latency (4.442 us, as pin-all) with 0 MiB pinned, the least among them",
                d.recommendation());
    }

    @Test
    void recommendsTheBestWhenNothingComesClose() {
        Decision d = Decision.of("bandwidth_MBps", true, List.of(c("firehose", 1000, 2), c("odp", 500, 0)));
        assertEquals("firehose: the best bandwidth (1000 MB/s) with 2 MiB pinned", d.recommendation());
    }

    @Test
    void ratesAreCountedPerSecond() {
        Decision d = Decision.of("inserts_per_s", true, List.of(c("pin-all", 1500, 0.008)));
        assertEquals("pin-all: the best inserts (1500/s) with 0.008 MiB pinned", d.recommendation());
    }

    @Test
    void noCandidatesNoRecommendation() {
        assertNull(Decision.of("latency_us", false, List.of()).recommendation());
    }
}
